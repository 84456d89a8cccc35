import { LRUCache } from "lru-cache";
import type { Account } from "../../db/accounts.ts";
import { type ChatBotAccount, loadChatBot } from "../../db/chat.ts";
import { readModerationChannel } from "../../db/moderation.ts";
import { grantedScopes } from "../../db/oauth-tokens.ts";
import type { ChatState } from "../../db/schema-enums.ts";
import { MODERATION_SCOPES } from "../twitch/scopes.ts";
import type { ModerationStatusContext } from "./context.ts";

/** What the dashboard shows of moderation's connection (`GET /api/dashboard/moderation`). */
export interface ModerationStatus {
  enabled: boolean;
  state: ChatState;
  since: number | null;
  reason: string | null;
  /** The scopes the streamer has not granted that moderation needs while they speak as themselves. */
  missingScopes: string[];
}

/** Whether the linked bot is a moderator of the channel, asked of Twitch at most once a minute. */
const moderatorChecks = new WeakMap<object, LRUCache<string, { moderator: boolean | null }>>();

async function botIsModerator(
  ctx: ModerationStatusContext,
  account: Account,
  bot: ChatBotAccount,
): Promise<boolean | null> {
  const helix = ctx.helixApi;
  if (!helix) return null;
  let cache = moderatorChecks.get(ctx);
  if (!cache) {
    cache = new LRUCache({ max: 10_000, ttl: 60_000 });
    moderatorChecks.set(ctx, cache);
  }
  const key = `${account.id}:${bot.twitchUserId}`;
  const known = cache.get(key);
  if (known) return known.moderator;
  let moderator: boolean | null = null;
  try {
    moderator = (await helix.moderatedChannelIds(bot.accessToken, bot.twitchUserId)).has(
      account.twitchUserId,
    );
  } catch {
    moderator = null;
  }
  cache.set(key, { moderator });
  return moderator;
}

/** Forgets what was asked of Twitch for the account (the streamer made the bot a moderator, or relinked it). */
export function forgetModeratorCheck(
  ctx: ModerationStatusContext,
  account: Account,
  botUserId: string,
): void {
  moderatorChecks.get(ctx)?.delete(`${account.id}:${botUserId}`);
}

/** Why the account that acts cannot moderate, and in which state; null when it can. */
export async function actingProblem(
  ctx: ModerationStatusContext,
  account: Account,
): Promise<{ state: ChatState; reason: string; missingScopes: string[] } | null> {
  const bot = await loadChatBot(ctx.db, ctx.secrets, account.id);
  if (bot) {
    const missing = MODERATION_SCOPES.filter((scope) => !bot.scopes.includes(scope));
    if (missing.length > 0)
      return {
        state: "error",
        reason: `The bot account ${bot.login} has not allowed cuebot to moderate (${missing.join(", ")}): link it again from the Chat view.`,
        missingScopes: [],
      };
    if ((await botIsModerator(ctx, account, bot)) === false)
      return {
        state: "error",
        reason: `The bot account ${bot.login} is not a moderator of your channel: type /mod ${bot.login} in your chat, then turn moderation off and on again.`,
        missingScopes: [],
      };
    return null;
  }
  const granted = await grantedScopes(ctx.db, account.id);
  const missing = MODERATION_SCOPES.filter((scope) => !granted.includes(scope));
  if (missing.length === 0) return null;
  return {
    state: "needs_consent",
    reason: `cuebot needs your permission to moderate chat (${missing.join(", ")}): allow it.`,
    missingScopes: missing,
  };
}

/**
 * The account's moderation as every instance answers it: off, else native chat's state while chat
 * is not connected, else what keeps the acting account from moderating (`needs_consent` for the
 * streamer's own grant, `error` for a bot account), else what the running server last reported
 * (an `error` when Twitch refused an action), else connected.
 */
export async function moderationStatus(
  ctx: ModerationStatusContext,
  accountId: number,
): Promise<ModerationStatus> {
  const [stored, account] = await Promise.all([
    readModerationChannel(ctx.db, accountId),
    ctx.accounts.account(accountId),
  ]);
  const since = stored?.stateSince ?? null;
  if (!stored?.enabled || !account)
    return { enabled: false, state: "off", since, reason: null, missingScopes: [] };
  const problem = await actingProblem(ctx, account);
  if (problem?.state === "needs_consent") return { enabled: true, since, ...problem };
  const chat = await ctx.chat.status(accountId);
  if (chat.state !== "connected")
    return { enabled: true, state: chat.state, since: chat.since, reason: chat.reason, missingScopes: [] };
  if (problem) return { enabled: true, since, ...problem };
  if (stored.state === "error")
    return { enabled: true, state: "error", since, reason: stored.reason, missingScopes: [] };
  return { enabled: true, state: "connected", since: chat.since, reason: null, missingScopes: [] };
}
