import type { Account } from "../../db/accounts.ts";
import { readChatSettings, writeChatEnabled } from "../../db/chat.ts";
import {
  listModerationLog,
  type ModerationLogEntry,
  markModerationUndone,
  readModerationLogEntry,
  readModerationRules,
  setModerationEnabled,
  writeModerationSettings,
  writeModerationState,
  writeShieldUntil,
} from "../../db/moderation.ts";
import { ApiError, badRequest, notFound } from "../core/errors.ts";
import { HelixError } from "../twitch/helix-client.ts";
import type {
  FilterSettings,
  ModerationFilter,
  ModerationLogAction,
  ShieldSettings,
  UserLevel,
} from "../vocabulary.ts";
import { asActing } from "./acting.ts";
import type { ModerationContext } from "./context.ts";
import { judgeLine, sharedFilters } from "./judge.ts";
import { loggedAction, punishmentOf } from "./punishment.ts";
import { mergeStoredSettings, parseModerationChanges, storedFilters, storedShield } from "./settings.ts";
import { type ModerationStatus, moderationStatus } from "./status.ts";

/**
 * What the dashboard's moderation routes do (server/panel/moderation.ts), framework-free: the status
 * with the settings, changing them, ending the shield, the log with its undo, and trying a line.
 * The Helix calls act as the account cuebot speaks as (the bot account's, or the streamer's own).
 */

const NOTHING_STORED = { filters: null, shield: null };

/** The account's settings, the defaults where it saved none. */
async function storedModeration(ctx: ModerationContext, account: Account) {
  return mergeStoredSettings((await readModerationRules(ctx.db, account.id)) ?? NOTHING_STORED);
}

/** Everything `GET /api/dashboard/moderation` shows, before the route shapes it. */
export interface ModerationView {
  status: ModerationStatus;
  filters: FilterSettings;
  shield: ShieldSettings & { active: boolean; until: number | null };
}

export async function moderationView(ctx: ModerationContext, account: Account): Promise<ModerationView> {
  const [status, stored] = await Promise.all([
    moderationStatus(ctx, account.id),
    readModerationRules(ctx.db, account.id),
  ]);
  const { filters, shield } = mergeStoredSettings(stored ?? NOTHING_STORED);
  const until = stored?.shieldUntil ?? null;
  const active = until !== null && until > ctx.clock.now();
  return { status, filters, shield: { ...shield, active, until: active ? until : null } };
}

/**
 * Applies a PUT: settings first (a refusal changes nothing), then the switch. Turning moderation on
 * turns native chat on where it is off, and clears a reported error (it is checked again).
 */
export async function changeModeration(
  ctx: ModerationContext,
  account: Account,
  change: { enabled?: boolean; filters?: unknown; shield?: unknown },
): Promise<void> {
  const now = ctx.clock.now();
  if (change.filters !== undefined || change.shield !== undefined) {
    const current = await storedModeration(ctx, account);
    const named = {
      ...(change.filters === undefined ? {} : { filters: change.filters }),
      ...(change.shield === undefined ? {} : { shield: change.shield }),
    };
    const parsed = parseModerationChanges(named, current);
    if (!parsed.ok) throw badRequest(parsed.error);
    const { filters, shield } = parsed.settings;
    await writeModerationSettings(
      ctx.db,
      account.id,
      { filters: storedFilters(filters), shield: storedShield(shield) },
      now,
    );
  }
  if (change.enabled !== undefined) {
    await setModerationEnabled(ctx.db, account.id, change.enabled, now);
    await writeModerationState(ctx.db, account.id, change.enabled ? "connecting" : "off", null, now);
    if (change.enabled && !(await readChatSettings(ctx.db, account.id))?.enabled) {
      await writeChatEnabled(ctx.db, account.id, true, now);
    }
    await ctx.chat.sync(account.id);
  }
  ctx.moderation.changed(account.id);
}

/** As the acting account (moderation/acting.ts); Twitch's refusal as the contract's error. */
async function asActingHere(
  ctx: ModerationContext,
  account: Account,
  call: Parameters<typeof asActing>[2],
  allowed: (error: HelixError) => boolean = () => false,
): Promise<void> {
  if (!ctx.helixApi) throw new ApiError(503, "upstream_error", "Twitch is not configured on this server.");
  try {
    await asActing(ctx, account, call);
  } catch (error) {
    if (error instanceof HelixError) {
      if (allowed(error)) return;
      throw refusedByTwitch(error);
    }
    throw new ApiError(502, "upstream_error", error instanceof Error ? error.message : String(error));
  }
}

/** Twitch refused: the contract's error saying why, for the dashboard. */
function refusedByTwitch(error: HelixError): ApiError {
  const why =
    error.status === 403
      ? "the account cuebot speaks as is not a moderator of your channel"
      : error.status === 401
        ? "cuebot lacks the permission to do this: allow it again"
        : error.message;
  return new ApiError(502, "upstream_error", `Twitch refused: ${why}.`);
}

/** Ends the raid shield at once: followers-only chat off, and the running server stops waiting. */
export async function endShield(ctx: ModerationContext, account: Account): Promise<void> {
  const stored = await readModerationRules(ctx.db, account.id);
  const until = stored?.shieldUntil ?? null;
  if (until === null) return;
  await asActingHere(ctx, account, (helix, token, moderatorId) =>
    helix.setFollowersOnly(token, { broadcasterId: account.twitchUserId, moderatorId, on: false }),
  );
  await writeShieldUntil(ctx.db, account.id, null, ctx.clock.now());
  ctx.moderation.changed(account.id);
}

/** Entries per page of the log. */
export const LOG_PAGE = 50;

export async function moderationLogPage(
  ctx: ModerationContext,
  account: Account,
  before: number | null,
): Promise<{ items: ModerationLogEntry[]; cursor: string | null }> {
  const items = await listModerationLog(ctx.db, account.id, { before, limit: LOG_PAGE });
  const last = items.at(-1);
  return { items, cursor: items.length === LOG_PAGE && last ? String(last.id) : null };
}

/** Only a timeout or a ban can be lifted. */
const undoable = (action: ModerationLogAction) => action === "timeout" || action === "ban";

/** Lifts a logged timeout or ban (Helix Unban User) and marks it undone; an expired one is undone already. */
export async function undoModeration(
  ctx: ModerationContext,
  account: Account,
  id: number,
): Promise<ModerationLogEntry> {
  const entry = await readModerationLogEntry(ctx.db, account.id, id);
  if (!entry) throw notFound("There is no such entry in the moderation log.");
  if (!undoable(entry.action)) throw badRequest("Only a timeout or a ban can be undone.");
  if (entry.undone) return entry;
  // "not banned" (400): the timeout ran out, or a moderator lifted it; the chatter is free either way.
  await asActingHere(
    ctx,
    account,
    (helix, token, moderatorId) =>
      helix.unban(token, { broadcasterId: account.twitchUserId, moderatorId, userId: entry.userId }),
    (error) => error.status === 400,
  );
  await markModerationUndone(ctx.db, account.id, id);
  return { ...entry, undone: true };
}

/** What would happen to a line from a chatter of `level`: changes nothing, remembers nothing. */
export async function tryLine(
  ctx: ModerationContext,
  account: Account,
  text: string,
  level: UserLevel,
): Promise<{ caught: boolean; filter: ModerationFilter | null; action: ModerationLogAction | null }> {
  const { filters } = await storedModeration(ctx, account);
  const exempt = level === "owner" || level === "moderator";
  const filter = exempt
    ? null
    : judgeLine(sharedFilters(filters), { text, emotes: [] }, level, { linksPermitted: false });
  if (filter === null) return { caught: false, filter: null, action: null };
  const punishment = punishmentOf(filter, filters, false);
  return {
    caught: true,
    filter,
    action: loggedAction(punishment, punishment.kind === "delete" && punishment.warn),
  };
}
