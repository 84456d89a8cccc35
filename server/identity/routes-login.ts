// GET /auth/login: the streamer's Twitch login, or (?consent=chat) the re-consent that adds the chat
// scope, (?consent=alerts) the one that adds the alerts' scopes, and so on for each of CONSENTS. The
// callback that finishes them is routes-callback.ts.
import { Elysia } from "elysia";
import type { Account } from "../../db/accounts.ts";
import { readAlertChannel } from "../../db/alerts.ts";
import { readChatSettings } from "../../db/chat.ts";
import { readModerationChannel } from "../../db/moderation.ts";
import { grantedScopes } from "../../db/oauth-tokens.ts";
import { StoreUnavailableError } from "../../db/store-unavailable.ts";
import type { CoreContext } from "../core/context.ts";
import { authenticatePanel } from "../http/panel-auth.ts";
import type { SessionContext } from "../http/session-auth.ts";
import {
  ALERT_EXTRA_SCOPES,
  MODERATION_EXTRA_SCOPES,
  MODERATOR_LIST_SCOPES,
  READ_CHAT_SCOPE,
  SHOUTOUT_SCOPE,
} from "../twitch/scopes.ts";
import {
  type Consent,
  consentOf,
  type LoginFlowContext,
  loginScopes,
  startAuthorization,
} from "./routes-flow.ts";

/** What the login routes read: the login flow, the session (whose consent), the config's extra scopes. */
export type LoginRoutesContext = LoginFlowContext & SessionContext & Pick<CoreContext, "config">;

/**
 * What each re-consent adds to the scopes already granted, and whether its feature is switched on. A
 * feature its grant alone switches on (Twitch's shoutout, the moderator list) has no switch: every
 * consent keeps what was granted, so it is never dropped either.
 */
const CONSENT_FEATURES: Readonly<
  Record<
    Consent,
    { scopes: readonly string[]; isOn?(ctx: Pick<CoreContext, "db">, accountId: number): Promise<boolean> }
  >
> = {
  chat: {
    scopes: [READ_CHAT_SCOPE],
    isOn: async (ctx, accountId) => (await readChatSettings(ctx.db, accountId))?.enabled ?? false,
  },
  alerts: {
    scopes: ALERT_EXTRA_SCOPES,
    isOn: async (ctx, accountId) => (await readAlertChannel(ctx.db, accountId))?.enabled ?? false,
  },
  // Moderation reads chat (it turns native chat on), deletes messages and holds followers-only chat.
  moderation: {
    scopes: [READ_CHAT_SCOPE, ...MODERATION_EXTRA_SCOPES],
    isOn: async (ctx, accountId) => (await readModerationChannel(ctx.db, accountId))?.enabled ?? false,
  },
  shoutout: { scopes: [SHOUTOUT_SCOPE] },
  moderators: { scopes: [MODERATOR_LIST_SCOPES[0]] },
};

/** The account whose session this browser holds, or null (none, expired, or the panel's allowance spent). */
async function sessionAccount(ctx: LoginRoutesContext, request: Request): Promise<Account | null> {
  try {
    return (await authenticatePanel(ctx, request, { headers: {} })).account;
  } catch (error) {
    // Not logged in is a page; a shared store that does not answer is a 503 like anywhere else.
    if (error instanceof StoreUnavailableError) throw error;
    return null;
  }
}

/** The scopes of the account's switched-on features, granted yet or not. */
async function switchedOnScopes(ctx: LoginRoutesContext, accountId: number): Promise<string[]> {
  const features = Object.values(CONSENT_FEATURES);
  const on = await Promise.all(features.map((feature) => feature.isOn?.(ctx, accountId) ?? false));
  return features.filter((_, i) => on[i]).flatMap((feature) => feature.scopes);
}

/**
 * A re-consent (native chat's, the alerts') asks for everything already granted and everything the
 * account's switched-on features need (a new grant replaces the whole set, reference/twitch-chat.md
 * §6.4), the login scopes, and what it adds (CONTRACT §6).
 * Without a session the account is not known: it asks for the login scopes and what it adds, and the
 * callback keeps a wider stored grant rather than narrow it (loginReplacesGrant in
 * provider-tokens.ts); the feature's link then asks again, with a session.
 */
async function consentScopes(
  ctx: LoginRoutesContext,
  account: Account | null,
  consent: Consent,
): Promise<string[]> {
  const [granted, switchedOn] = account
    ? await Promise.all([grantedScopes(ctx.db, account.id), switchedOnScopes(ctx, account.id)])
    : [[], []];
  return [
    ...new Set([
      ...loginScopes(ctx.config.twitch.extraScopes),
      ...granted,
      ...switchedOn,
      ...CONSENT_FEATURES[consent].scopes,
    ]),
  ];
}

/** The redirect to Twitch for a re-consent, bound to the account that asked when it is known. */
async function startConsent(ctx: LoginRoutesContext, request: Request, consent: Consent): Promise<Response> {
  const account = await sessionAccount(ctx, request);
  return startAuthorization(ctx, request, {
    path: "/auth/login",
    scopes: await consentScopes(ctx, account, consent),
    // A re-consent must show Twitch's consent page again: a new grant replaces the old one.
    forceVerify: true,
    purpose: consent,
    ...(account ? { askedBy: account.id } : {}),
  });
}

export function loginRoutes(ctx: LoginRoutesContext) {
  return new Elysia({ name: "cuebot.auth-login" }).get(
    "/auth/login",
    async ({ request }) => {
      const url = new URL(request.url);
      const consent = consentOf(url.searchParams.get("consent"));
      if (consent) return startConsent(ctx, request, consent);
      return startAuthorization(ctx, request, {
        path: "/auth/login",
        scopes: loginScopes(ctx.config.twitch.extraScopes),
        forceVerify: url.searchParams.get("switch") === "1",
        purpose: "login",
      });
    },
    { detail: { summary: "Start the Twitch login (redirects to the identity provider)", tags: ["auth"] } },
  );
}
