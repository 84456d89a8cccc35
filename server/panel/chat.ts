import { Elysia, t } from "elysia";
import type { Account } from "../../db/accounts.ts";
import { loadChatBot, writeChatEnabled } from "../../db/chat.ts";
import { botStanding, unlinkBot } from "../chat/bot-account.ts";
import { badRequest, notFound } from "../core/errors.ts";
import { authenticatePanel, ORIGIN_NOTE, PANEL_SECURITY } from "../http/panel-auth.ts";
import type { Context } from "../runtime.ts";
import { READ_CHAT_SCOPE } from "../twitch/scopes.ts";

/** Where the re-consent login that adds `user:read:chat` starts (identity/routes-login.ts). */
export const CHAT_CONSENT_URL = "/auth/login?consent=chat";

/** Where linking a separate bot account starts (identity/routes-bot-link.ts). */
export const BOT_LINK_URL = "/auth/chat-bot";

/**
 * The panel's view of native chat (CONTRACT §6: `data: {enabled, state, since, reason, consentUrl}`),
 * plus who speaks: the linked bot account with its standing in the channel, or null (the streamer).
 */
export async function chatPanelData(ctx: Context, account: Account) {
  const status = await ctx.chat.status(account.id);
  const bot = await loadChatBot(ctx.db, ctx.secrets, account.id);
  return {
    enabled: status.enabled,
    state: status.state,
    since: status.since === null ? null : new Date(status.since).toISOString(),
    reason: status.reason,
    consentUrl: status.state === "needs_consent" && !bot ? CHAT_CONSENT_URL : null,
    scope: READ_CHAT_SCOPE,
    bot: bot ? { ...(await botStanding(ctx, account, bot)), needsReauth: bot.needsReauth } : null,
    botLinkUrl: BOT_LINK_URL,
  };
}

/** `{"enabled": true|false}` and nothing else. */
function parseSwitch(body: unknown): boolean {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw badRequest('The body must be a JSON object like {"enabled": true}.');
  }
  const extra = Object.keys(body).filter((k) => k !== "enabled");
  if (extra.length > 0) throw badRequest(`Unknown body field "${extra[0]}"; only "enabled" can be set.`);
  const enabled = (body as { enabled?: unknown }).enabled;
  if (typeof enabled !== "boolean") throw badRequest('The body field "enabled" must be true or false.');
  return enabled;
}

function requireDemo(ctx: Context) {
  if (!ctx.demoChat) throw notFound("The simulated chat exists in demo mode only (cuebot serve --demo).");
  return ctx.demoChat;
}

/** A line the visitor types: 1–500 characters, as one of the offered viewers. */
function parseDemoLine(body: unknown, viewers: readonly string[]): { user: string; text: string } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw badRequest('The body must be a JSON object like {"text": "!followage"}.');
  }
  const { text, user } = body as { text?: unknown; user?: unknown };
  if (typeof text !== "string" || text.trim() === "" || [...text].length > 500) {
    throw badRequest('The body field "text" must be 1–500 characters.');
  }
  const who = user === undefined ? viewers[0]! : user;
  if (typeof who !== "string" || !viewers.includes(who)) {
    throw badRequest(`The body field "user" must be one of ${viewers.join(", ")}.`);
  }
  return { user: who, text };
}

/** Native chat on the dashboard: its state, and the switch that turns it on and off. */
export function chatPanelRoutes(ctx: Context) {
  const detail = (summary: string) => ({
    summary,
    tags: ["panel"],
    security: PANEL_SECURITY,
    description: ORIGIN_NOTE,
  });
  return new Elysia({ name: "cuebot.panel-chat", prefix: "/api/dashboard" })
    .derive(async ({ request, set }) => ({ principal: await authenticatePanel(ctx, request, set) }))
    .get(
      "/chat",
      async ({ principal: { account } }) => ({
        status: 200 as const,
        data: await chatPanelData(ctx, account),
      }),
      {
        detail: detail(
          "Native chat: whether cuebot answers commands in this channel's chat itself, and its connection state",
        ),
      },
    )
    .put(
      "/chat",
      async ({ principal: { account }, body }) => {
        const enabled = parseSwitch(body);
        await writeChatEnabled(ctx.db, account.id, enabled, ctx.clock.now());
        await ctx.chat.sync(account.id);
        return { status: 200 as const, data: await chatPanelData(ctx, account) };
      },
      {
        body: t.Unknown({
          description: '{"enabled": true} turns native chat on (it may then need consent), false off',
        }),
        detail: detail("Turn native chat on or off"),
      },
    )
    .delete(
      "/chat/bot",
      async ({ principal: { account } }) => {
        if (!(await unlinkBot(ctx, account)))
          throw notFound("No bot account is linked; cuebot speaks as you.");
        return { status: 200 as const, data: await chatPanelData(ctx, account) };
      },
      {
        detail: detail(
          "Unlink the bot account: cuebot speaks as the streamer again (the bot's grant is revoked)",
        ),
      },
    )
    .get(
      "/demo/chat",
      ({ principal: { account } }) => {
        const demo = requireDemo(ctx);
        return {
          status: 200 as const,
          data: { viewers: demo.viewers, lines: demo.lines(account.login).slice(-100) },
        };
      },
      { detail: detail("Demo mode only: the simulated chat of the demo channel") },
    )
    .post(
      "/demo/chat",
      ({ principal: { account }, body }) => {
        const demo = requireDemo(ctx);
        const { user, text } = parseDemoLine(body, demo.viewers);
        // `refused`: Twitch's sentence when the room refused the line (followers-only, a timeout).
        return { status: 200 as const, data: demo.say(account.login, user, text) };
      },
      {
        body: t.Unknown({ description: '{"text": "!followage", "user": "viewer_anna"}' }),
        detail: detail("Demo mode only: type a line in the simulated chat as a viewer"),
      },
    );
}
