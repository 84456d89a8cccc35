// Linking a separate bot account for native chat: GET /auth/chat-bot starts a Twitch login as the
// bot, and the callback (routes-callback.ts) hands it to linkBot, which stores it for the streamer.
import { Elysia } from "elysia";
import type { Account } from "../../db/accounts.ts";
import { storeChatBot } from "../../db/chat.ts";
import { readModerationChannel } from "../../db/moderation.ts";
import { StoreUnavailableError } from "../../db/store-unavailable.ts";
import type { CoreContext } from "../core/context.ts";
import { authenticatePanel } from "../http/panel-auth.ts";
import type { SessionContext } from "../http/session-auth.ts";
import type { HelixUser } from "../twitch/helix-client.ts";
import { BOT_LINK_SCOPES, MODERATION_SCOPES } from "../twitch/scopes.ts";
import { pageOrError } from "../web/page.ts";
import type { FeatureConnections } from "./connections.ts";
import type { ProviderTokenSet } from "./idp-client.ts";
import {
  clearLoginCookies,
  type LoginFlowContext,
  loginResult,
  startAuthorization,
  TRY_AGAIN,
} from "./routes-flow.ts";

/** What linking a bot reads: the login flow, the streamer's session, the stores, native chat's connections. */
export type BotLinkContext = LoginFlowContext &
  SessionContext &
  Pick<CoreContext, "secrets" | "log"> &
  Pick<FeatureConnections, "chat">;

/** The callback of a bot-account login: store the bot for the logged-in streamer; no account, no session. */
export async function linkBot(
  ctx: BotLinkContext,
  request: Request,
  user: HelixUser,
  tokens: ProviderTokenSet,
): Promise<Response> {
  let account: Account;
  try {
    account = (await authenticatePanel(ctx, request, { headers: {} })).account;
  } catch (error) {
    // Not logged in is a page; a shared store that does not answer is a 503 like anywhere else.
    if (error instanceof StoreUnavailableError) throw error;
    return loginResult(ctx, request, {
      status: 401,
      code: "not_authenticated",
      title: "Log in first",
      message: "Log in to cuebot as the streamer, then link the bot account again.",
    });
  }
  if (user.id === account.twitchUserId) {
    return loginResult(ctx, request, {
      status: 400,
      code: "bad_request",
      title: "That is your own account",
      message:
        "Twitch logged in as your streamer account, which already speaks for cuebot by default. To link a separate bot, log in to Twitch as the bot account (a private window helps), then link again.",
    });
  }
  const now = ctx.clock.now();
  await storeChatBot(
    ctx.db,
    ctx.secrets,
    account.id,
    {
      twitchUserId: user.id,
      login: user.login,
      displayName: user.display_name || user.login,
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      scopes: tokens.scopes,
      expiresAt: now + tokens.expiresIn * 1000,
      needsReauth: false,
    },
    now,
  );
  ctx.log.info("a chat bot account was linked", { login: account.login, bot: user.login });
  await ctx.chat.sync(account.id);
  const response = new Response(null, {
    status: 302,
    headers: { location: "/dashboard#/chat", "cache-control": "no-store" },
  });
  for (const cookie of clearLoginCookies(ctx)) response.headers.append("set-cookie", cookie);
  return response;
}

export function botLinkRoutes(ctx: BotLinkContext) {
  return new Elysia({ name: "cuebot.auth-bot-link" }).get(
    "/auth/chat-bot",
    async ({ request }) => {
      // Only a logged-in streamer links a bot to their channel.
      let accountId: number;
      try {
        accountId = (await authenticatePanel(ctx, request, { headers: {} })).account.id;
      } catch (error) {
        // Not logged in is a page; a shared store that does not answer is a 503 like anywhere else.
        if (error instanceof StoreUnavailableError) throw error;
        return pageOrError(request, 401, "not_authenticated", {
          title: "Log in first",
          message: "Log in to cuebot as the streamer, then link the bot account from the Chat page.",
          action: TRY_AGAIN,
        });
      }
      return startAuthorization(ctx, request, {
        path: "/auth/chat-bot",
        // With moderation on, the bot acts for it too: its grant covers that (CONTRACT §6).
        scopes: (await readModerationChannel(ctx.db, accountId))?.enabled
          ? [...BOT_LINK_SCOPES, ...MODERATION_SCOPES]
          : [...BOT_LINK_SCOPES],
        // The browser is usually logged in to Twitch as the streamer: let them switch accounts.
        forceVerify: true,
        purpose: "bot",
      });
    },
    {
      detail: {
        summary: "Link a separate bot account for native chat (a login as that account; needs a session)",
        tags: ["auth"],
      },
    },
  );
}
