// GET /auth/login: the streamer's Twitch login, or (?consent=chat) the re-consent that adds the chat
// scope. The callback that finishes both is routes-callback.ts.
import { Elysia } from "elysia";
import { grantedScopes } from "../../db/oauth-tokens.ts";
import { StoreUnavailableError } from "../../db/store-unavailable.ts";
import { READ_CHAT_SCOPE } from "../chat/status.ts";
import { authenticatePanel } from "../panel/guard.ts";
import type { Context } from "../runtime.ts";
import { loginScopes, startAuthorization } from "./routes-flow.ts";

/**
 * The re-consent for native chat asks for everything already granted (a new grant replaces the
 * whole set, reference/twitch-chat.md §6.4), the login scopes, and `user:read:chat`.
 */
async function chatConsentScopes(ctx: Context, request: Request): Promise<string[]> {
  const granted = await (async () => {
    try {
      return await grantedScopes(ctx.db, (await authenticatePanel(ctx, request, { headers: {} })).account.id);
    } catch (error) {
      // Not logged in is a page; a shared store that does not answer is a 503 like anywhere else.
      if (error instanceof StoreUnavailableError) throw error;
      return [];
    }
  })();
  return [...new Set([...loginScopes(ctx.config.twitch.extraScopes), ...granted, READ_CHAT_SCOPE])];
}

export function loginRoutes(ctx: Context) {
  return new Elysia({ name: "cuebot.auth-login" }).get(
    "/auth/login",
    async ({ request }) => {
      const url = new URL(request.url);
      const chatConsent = url.searchParams.get("consent") === "chat";
      return startAuthorization(ctx, request, {
        path: "/auth/login",
        scopes: chatConsent
          ? await chatConsentScopes(ctx, request)
          : loginScopes(ctx.config.twitch.extraScopes),
        // A re-consent must show Twitch's consent page again: a new grant replaces the old one.
        forceVerify: chatConsent || url.searchParams.get("switch") === "1",
        purpose: chatConsent ? "chat" : "login",
      });
    },
    { detail: { summary: "Start the Twitch login (redirects to the identity provider)", tags: ["auth"] } },
  );
}
