import { Elysia, t } from "elysia";
import type { Account } from "../../db/accounts.ts";
import type { ModerationLogEntry } from "../../db/moderation.ts";
import { parseUserLevel } from "../../db/schema-enums.ts";
import { badRequest } from "../core/errors.ts";
import { authenticatePanel } from "../http/panel-auth.ts";
import {
  changeModeration,
  endShield,
  moderationLogPage,
  moderationView,
  tryLine,
  undoModeration,
} from "../moderation/dashboard.ts";
import type { Context } from "../runtime.ts";
import { CHAT_BOT_LIMITS, USER_LEVELS } from "../vocabulary.ts";
import { bodyObject, booleanField, fieldError, panelDetail, textField } from "./chat-bot-input.ts";

/**
 * The dashboard's chat moderation (issue 35; CONTRACT §6 "Chat moderation"): the switch and its
 * state with native chat's states, each filter's settings, the raid shield, the log with its undo,
 * and "try a line". The work is moderation/dashboard.ts's; this file reads and shapes.
 */

/** Where the re-consent login that adds the moderation scopes starts (identity/routes-login.ts). */
export const MODERATION_CONSENT_URL = "/auth/login?consent=moderation";

/** A chat line's length on Twitch, in code points. */
const CHAT_LINE_LENGTH = CHAT_BOT_LIMITS.textLength;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

async function panelData(ctx: Context, account: Account) {
  const { status, filters, shield } = await moderationView(ctx, account);
  return {
    enabled: status.enabled,
    state: status.state,
    since: iso(status.since),
    reason: status.reason,
    consentUrl: status.missingScopes.length > 0 ? MODERATION_CONSENT_URL : null,
    filters,
    shield: { ...shield, until: iso(shield.until) },
  };
}

function logItem(entry: ModerationLogEntry) {
  return {
    id: entry.id,
    at: new Date(entry.at).toISOString(),
    user: { id: entry.userId, login: entry.userLogin, name: entry.userName },
    filter: entry.filter,
    action: entry.action,
    seconds: entry.seconds,
    text: entry.text,
    undone: entry.undone,
  };
}

/** `before`: a cursor from an earlier page (an entry's id), or none. */
function beforeCursor(raw: string | undefined): number | null {
  if (raw === undefined || raw === "") return null;
  if (!/^[1-9][0-9]{0,15}$/.test(raw))
    throw fieldError("query parameter", "before", "must be a cursor from an earlier page.");
  return Number(raw);
}

function entryId(raw: string): number {
  if (!/^[1-9][0-9]{0,15}$/.test(raw)) throw fieldError("path parameter", "id", "must be a log entry's id.");
  return Number(raw);
}

const DATA =
  "`data: {enabled, state, since, reason, consentUrl, filters, shield}`. `state` as native chat's (off, needs_consent, connecting, connected, error); `consentUrl` (`/auth/login?consent=moderation`) asks for `moderator:manage:chat_messages` and `moderator:manage:chat_settings` while the streamer's own grant lacks them. `filters`: `{links, caps, symbols, repetition, emotes, length, terms}`, each `{enabled, exempt, timeoutSeconds, silent, message}` and its own settings; `shield`: `{enabled, chatters, seconds, minutes, active, until}`.";

export function moderationPanelRoutes(ctx: Context) {
  return new Elysia({ name: "cuebot.panel-moderation", prefix: "/api/dashboard" })
    .derive(async ({ request, set }) => ({ principal: await authenticatePanel(ctx, request, set) }))
    .get(
      "/moderation",
      async ({ principal: { account } }) => ({ status: 200 as const, data: await panelData(ctx, account) }),
      {
        detail: panelDetail("Chat moderation: its state, every filter's settings and the raid shield", DATA),
      },
    )
    .put(
      "/moderation",
      async ({ principal: { account }, body }) => {
        const fields = bodyObject(
          body,
          ["enabled", "filters", "shield"],
          '{"filters": {"caps": {"percent": 80}}}',
        );
        const enabled = booleanField(fields, "enabled");
        await changeModeration(ctx, account, { enabled, filters: fields.filters, shield: fields.shield });
        return { status: 200 as const, data: await panelData(ctx, account) };
      },
      {
        body: t.Unknown({
          description:
            '`{"enabled": true}` turns moderation on (and native chat with it); `{"filters": {"caps": {"percent": 80}}}` and `{"shield": {"minutes": 10}}` change only the settings named. An unknown filter or setting, or a value out of range → 400 naming it, nothing changed.',
        }),
        detail: panelDetail("Turn chat moderation on or off, or change filter and shield settings", DATA),
      },
    )
    .post(
      "/moderation/shield",
      async ({ principal: { account }, body }) => {
        const fields = bodyObject(body, ["active"], '{"active": false}');
        if (booleanField(fields, "active") !== false)
          throw fieldError(
            "body field",
            "active",
            "must be false: the shield is ended this way; it starts by itself.",
          );
        await endShield(ctx, account);
        return { status: 200 as const, data: await panelData(ctx, account) };
      },
      {
        body: t.Unknown({
          description: '`{"active": false}` ends the raid shield now (followers-only chat off)',
        }),
        detail: panelDetail("End the raid shield now", DATA),
      },
    )
    .get(
      "/moderation/log",
      async ({ principal: { account }, query }) => {
        const page = await moderationLogPage(ctx, account, beforeCursor(query.before));
        return { status: 200 as const, data: { items: page.items.map(logItem), cursor: page.cursor } };
      },
      {
        query: t.Object({
          before: t.Optional(t.String({ description: "the `cursor` of the previous page" })),
        }),
        detail: panelDetail(
          "The moderation log, newest first",
          "`data: {items, cursor}`; each item `{id, at, user: {id, login, name}, filter, action (deleted|warned|timeout|ban|permit|shield), seconds, text, undone}`; `text` is the caught line, kept 7 days. `cursor` is null on the last page.",
        ),
      },
    )
    .post(
      "/moderation/log/:id/undo",
      async ({ principal: { account }, params }) => ({
        status: 200 as const,
        data: logItem(await undoModeration(ctx, account, entryId(params.id))),
      }),
      {
        detail: panelDetail(
          "Undo a timeout or ban from the log (Helix Unban User)",
          "`data`: the entry, `undone: true`.",
        ),
      },
    )
    .post(
      "/moderation/test",
      async ({ principal: { account }, body }) => {
        const fields = bodyObject(
          body,
          ["text", "level"],
          '{"text": "visit example.com", "level": "everyone"}',
        );
        const text = textField(fields, "text", true);
        if ([...text].length > CHAT_LINE_LENGTH)
          throw fieldError(
            "body field",
            "text",
            `must be at most ${CHAT_LINE_LENGTH} characters, as a chat line is.`,
          );
        const levelText = textField(fields, "level") ?? "everyone";
        const level = parseUserLevel(levelText);
        if (!level) throw badRequest(`The body field "level" must be one of ${USER_LEVELS.join(", ")}.`);
        return { status: 200 as const, data: await tryLine(ctx, account, text, level) };
      },
      {
        body: t.Unknown({ description: '`{"text": "…", "level": "everyone"}` (a Nightbot user level)' }),
        detail: panelDetail(
          "Try a line against the filters",
          "`data: {caught, filter, action}`: what would happen to that line from a chatter of that level (a first offence); nothing is changed or remembered.",
        ),
      },
    );
}
