// GET /auth/login: the streamer's Twitch login, or (?consent=chat) the re-consent that adds the chat
// scope, or (?consent=alerts) the one that adds the alerts' scopes. The callback that finishes them is
// routes-callback.ts.
import { Elysia } from "elysia";
import { grantedScopes } from "../../db/oauth-tokens.ts";
import { StoreUnavailableError } from "../../db/store-unavailable.ts";
import { ALERT_EXTRA_SCOPES } from "../alerts/types.ts";
import { READ_CHAT_SCOPE } from "../chat/status.ts";
import { authenticatePanel } from "../http/panel-auth.ts";
import type { Context } from "../runtime.ts";
import { loginScopes, startAuthorization } from "./routes-flow.ts";

/** What each re-consent adds to the scopes already granted. */
const CONSENTS = {
  chat: [READ_CHAT_SCOPE],
  alerts: ALERT_EXTRA_SCOPES,
} as const satisfies Record<string, readonly string[]>;

type Consent = keyof typeof CONSENTS;

const consentOf = (raw: string | null): Consent | null => (raw === "chat" || raw === "alerts" ? raw : null);

/**
 * A re-consent (native chat's, the alerts') asks for everything already granted (a new grant
 * replaces the whole set, reference/twitch-chat.md §6.4), the login scopes, and what it adds.
 * Without a session (expired, or the panel's allowance spent) the account is not known: it asks for
 * the login scopes and what it adds, and the callback keeps a wider stored grant rather than narrow
 * it (loginReplacesGrant in provider-tokens.ts); the feature's link then asks again, with a session.
 */
async function consentScopes(ctx: Context, request: Request, consent: Consent): Promise<string[]> {
  const granted = await (async () => {
    try {
      return await grantedScopes(ctx.db, (await authenticatePanel(ctx, request, { headers: {} })).account.id);
    } catch (error) {
      // Not logged in is a page; a shared store that does not answer is a 503 like anywhere else.
      if (error instanceof StoreUnavailableError) throw error;
      return [];
    }
  })();
  return [...new Set([...loginScopes(ctx.config.twitch.extraScopes), ...granted, ...CONSENTS[consent]])];
}

export function loginRoutes(ctx: Context) {
  return new Elysia({ name: "cuebot.auth-login" }).get(
    "/auth/login",
    async ({ request }) => {
      const url = new URL(request.url);
      const consent = consentOf(url.searchParams.get("consent"));
      return startAuthorization(ctx, request, {
        path: "/auth/login",
        scopes: consent
          ? await consentScopes(ctx, request, consent)
          : loginScopes(ctx.config.twitch.extraScopes),
        // A re-consent must show Twitch's consent page again: a new grant replaces the old one.
        forceVerify: consent !== null || url.searchParams.get("switch") === "1",
        purpose: consent ?? "login",
      });
    },
    { detail: { summary: "Start the Twitch login (redirects to the identity provider)", tags: ["auth"] } },
  );
}
