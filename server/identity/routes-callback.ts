// GET /auth/callback, where the identity provider sends the browser back: checks the attempt,
// exchanges the code, then finishes what the login was started for (routes-login.ts: a login, the
// chat or the alerts re-consent; routes-bot-link.ts: linking a bot account).
import { Elysia } from "elysia";
import type { Account } from "../../db/accounts.ts";
import { setAlertsEnabled } from "../../db/alerts.ts";
import { writeChatEnabled } from "../../db/chat.ts";
import { setModerationEnabled, writeModerationState } from "../../db/moderation.ts";
import type { Store } from "../core/accounts.ts";
import { liveSessionAccount, SESSION_COOKIE } from "../core/sessions.ts";
import { type DemoSeedContext, seedDemo } from "../demo-seed.ts";
import { readCookie } from "../http/auth.ts";
import { sessionCookie } from "../http/session-auth.ts";
import { type HelixClient, HelixError, type HelixUser } from "../twitch/helix-client.ts";
import { ALERT_EXTRA_SCOPES, MODERATION_EXTRA_SCOPES, READ_CHAT_SCOPE } from "../twitch/scopes.ts";
import type { FeatureConnections } from "./connections.ts";
import { type IdentityProviderClient, IdentityProviderError, type ProviderTokenSet } from "./idp-client.ts";
import { completeLogin, normalizeTimezone } from "./login.ts";
import { type BotLinkContext, linkBot } from "./routes-bot-link.ts";
import {
  ASKER_COOKIE,
  type Consent,
  clearLoginCookies,
  consentOf,
  type LoginRefusal,
  loginNotConfigured,
  loginResult,
  PURPOSE_COOKIE,
  redirectUri,
  STATE_COOKIE,
  TIMEZONE_COOKIE,
} from "./routes-flow.ts";

/**
 * What the callback reads: what linking a bot reads, the Helix client (who logged in), the stores a
 * login writes and the owner, both features' connections, and what the demo's seeding reads.
 */
export interface CallbackContext extends BotLinkContext, Store, FeatureConnections, DemoSeedContext {
  readonly helix: HelixClient | null;
  /** The install's owner, whose first login creates a Partner account. */
  readonly owner: string | null;
}

/**
 * The authorization code the provider sent back, or why the callback is refused. Nothing in the
 * callback is believed before its state matches this browser's login attempt, and the provider's
 * words are never echoed (a crafted link could put any text there).
 */
function authorizationCode(request: Request): string | LoginRefusal {
  const url = new URL(request.url);
  const expectedState = readCookie(request, STATE_COOKIE);
  const state = url.searchParams.get("state");
  if (!state || !expectedState || state !== expectedState) {
    return {
      status: 400,
      code: "invalid_state",
      title: "This login link is not valid",
      message:
        "The login attempt expired or did not start in this browser, so nothing was changed. Please start again.",
    };
  }
  if (url.searchParams.get("error")) {
    const denied = url.searchParams.get("error") === "access_denied";
    return {
      status: denied ? 403 : 400,
      code: denied ? "access_denied" : "login_failed",
      title: denied ? "Login cancelled" : "Login failed",
      message: denied
        ? "You did not allow cuebot to use your Twitch account, so nothing was created. You can try again at any time."
        : "Twitch could not complete the login, so nothing was changed. Please try again.",
    };
  }
  const code = url.searchParams.get("code");
  if (!code)
    return {
      status: 400,
      code: "login_failed",
      title: "Login failed",
      message: "Twitch sent no authorization code. Please start again.",
    };
  return code;
}

/** Who logged in at Twitch and the tokens the code was exchanged for, or why the login is refused. */
async function providerIdentity(
  ctx: CallbackContext,
  idp: IdentityProviderClient,
  helix: HelixClient,
  code: string,
): Promise<{ user: HelixUser; tokens: ProviderTokenSet } | { refusal: LoginRefusal }> {
  let tokens: ProviderTokenSet;
  let user: HelixUser | undefined;
  try {
    tokens = await idp.exchangeCode(code, redirectUri(ctx));
    user = (await helix.getUsers(tokens.accessToken))[0];
  } catch (error) {
    if (error instanceof IdentityProviderError && error.kind === "rejected") {
      return {
        refusal: {
          status: 400,
          code: "login_failed",
          title: "This login link was already used",
          message: "Twitch refused the login code (it is single-use and short-lived). Please start again.",
        },
      };
    }
    const unreachable = error instanceof IdentityProviderError || error instanceof HelixError;
    if (!unreachable) throw error;
    ctx.log.warn("login failed: the identity provider is unavailable", { error });
    return {
      refusal: {
        status: 502,
        code: "upstream_error",
        title: "Twitch is not answering",
        message:
          "cuebot could not reach Twitch to finish the login; nothing was changed. Please try again in a minute.",
      },
    };
  }
  if (!user)
    return {
      refusal: {
        status: 502,
        code: "upstream_error",
        title: "Twitch is not answering",
        message: "Twitch did not say who logged in; nothing was changed. Please try again.",
      },
    };
  return { user, tokens };
}

/**
 * The account a re-consent was started for (routes-login.ts): null for a login, "gone" when it was
 * deleted while Twitch asked.
 */
async function askingAccount(ctx: CallbackContext, request: Request): Promise<Account | null | "gone"> {
  const raw = readCookie(request, ASKER_COOKIE);
  if (!raw) return null;
  const id = Number(raw);
  const account = Number.isSafeInteger(id) && id > 0 ? await ctx.accounts.account(id) : null;
  return account ?? "gone";
}

/** Whether this browser still holds a live session of the account (read only: it may have logged out meanwhile). */
async function stillLoggedInAs(ctx: CallbackContext, request: Request, account: Account): Promise<boolean> {
  const token = readCookie(request, SESSION_COOKIE);
  return token !== undefined && (await liveSessionAccount(ctx, token))?.id === account.id;
}

const ASKER_GONE: LoginRefusal = {
  status: 400,
  code: "invalid_state",
  title: "That cuebot account no longer exists",
  message:
    "This was asked for a cuebot account that no longer exists (it was deleted meanwhile), so nothing was changed. Log in to start again.",
};

/** A person's name as Twitch shows it, with the login when the display name is not just its spelling. */
function twitchName(user: { login: string; displayName: string }): string {
  const { login, displayName } = user;
  if (!displayName) return login;
  return displayName.toLowerCase() === login ? displayName : `${displayName} (${login})`;
}

/**
 * A re-consent approved by another Twitch user than the account that asked (the browser was still
 * signed in to twitch.tv as someone else, often the linked bot): refused, nothing stored, the
 * session left as it is (CONTRACT §6). 403 as for a denied consent: the grant the account asked for
 * was not given, and a JSON client must not read it as a success.
 */
function approvedByAnother(
  asker: Account,
  approver: HelixUser,
  request: Request,
  loggedIn: boolean,
): LoginRefusal {
  const streamer = twitchName(asker);
  const other = twitchName({ login: approver.login, displayName: approver.display_name });
  const consent = consentOf(readCookie(request, PURPOSE_COOKIE));
  const session = loggedIn
    ? `you are still logged in as ${streamer}`
    : "you were logged out of cuebot meanwhile (log in again first)";
  return {
    status: 403,
    code: "wrong_twitch_user",
    title: "Approved by another Twitch account",
    message: `Twitch says ${other} approved, but this was asked for your cuebot account ${streamer}, so nothing was changed and ${session}. Log out of twitch.tv, log in there as ${asker.login}, then try again.`,
    action: {
      href: consent ? `/auth/login?consent=${consent}` : "/auth/login",
      label: `Try again as ${asker.displayName || asker.login}`,
    },
  };
}

/**
 * Why a re-consent approved by this Twitch user is refused (the account that asked was deleted
 * meanwhile, or another user approved), or null when it is theirs to finish.
 */
async function consentRefusal(
  ctx: CallbackContext,
  request: Request,
  approver: HelixUser,
): Promise<LoginRefusal | null> {
  const asker = await askingAccount(ctx, request);
  if (asker === "gone") return ASKER_GONE;
  if (!asker || asker.twitchUserId === approver.id) return null;
  ctx.log.info("a consent was approved by another Twitch user; nothing was changed", {
    login: asker.login,
    approver: approver.login,
  });
  return approvedByAnother(asker, approver, request, await stillLoggedInAs(ctx, request, asker));
}

/** The dashboard view each re-consent was asked from, where the browser goes back to. */
const CONSENT_VIEWS: Readonly<Record<Consent, string>> = {
  chat: "chat",
  alerts: "alerts",
  moderation: "moderation",
  shoutout: "commands",
  moderators: "commands",
};

/**
 * A re-consent (native chat's, the alerts') switches its feature on when Twitch granted what it
 * asked; Twitch's shoutout and the moderator list work from the grant alone (their commands read it).
 * Any login brings new tokens, which the running chat and alert connections pick up. Answers where
 * the browser goes next.
 */
async function finishConsent(
  ctx: CallbackContext,
  purpose: string | undefined,
  accountId: number,
  tokens: ProviderTokenSet,
): Promise<string> {
  if (purpose === "chat" && tokens.scopes.includes(READ_CHAT_SCOPE)) {
    await writeChatEnabled(ctx.db, accountId, true, ctx.clock.now());
  }
  if (purpose === "alerts" && ALERT_EXTRA_SCOPES.every((scope) => tokens.scopes.includes(scope))) {
    await setAlertsEnabled(ctx.db, accountId, true, ctx.clock.now());
  }
  const moderates = [READ_CHAT_SCOPE, ...MODERATION_EXTRA_SCOPES].every((scope) =>
    tokens.scopes.includes(scope),
  );
  if (purpose === "moderation" && moderates) {
    const now = ctx.clock.now();
    await setModerationEnabled(ctx.db, accountId, true, now);
    await writeModerationState(ctx.db, accountId, "connecting", null, now);
    await writeChatEnabled(ctx.db, accountId, true, now);
  }
  await ctx.chat.sync(accountId);
  await ctx.alertsStatus.sync(accountId);
  ctx.moderation.changed(accountId);
  const consent = consentOf(purpose);
  return consent ? `/dashboard#/${CONSENT_VIEWS[consent]}` : "/dashboard";
}

/** The streamer's login (or a re-consent): the account and a session, then back to the dashboard. */
async function finishLogin(
  ctx: CallbackContext,
  request: Request,
  user: HelixUser,
  tokens: ProviderTokenSet,
): Promise<Response> {
  const timezone = normalizeTimezone(readCookie(request, TIMEZONE_COOKIE));
  const login = await completeLogin(ctx, user, tokens, timezone, request.headers.get("user-agent") ?? "");
  ctx.log.info(login.created ? "account created at first login" : "streamer logged in", {
    login: login.account.login,
  });
  // `serve --demo`: the demo channel starts with example commands, a timer, quotes and its OBS.
  await seedDemo(ctx, login.account);
  // An account this login just created never asked for a feature (a consent begun without a
  // session, approved by someone new): its first login switches nothing on.
  const purpose = login.created ? "login" : readCookie(request, PURPOSE_COOKIE);
  const location = await finishConsent(ctx, purpose, login.account.id, tokens);
  const response = new Response(null, {
    status: 302,
    headers: { location, "cache-control": "no-store" },
  });
  response.headers.append("set-cookie", sessionCookie(ctx, login.session.token, login.session.expiresAt));
  for (const cookie of clearLoginCookies(ctx)) response.headers.append("set-cookie", cookie);
  return response;
}

export function callbackRoutes(ctx: CallbackContext) {
  return new Elysia({ name: "cuebot.auth-callback" }).get(
    "/auth/callback",
    async ({ request }) => {
      const idp = ctx.identityProvider;
      const helix = ctx.helix;
      if (!idp || !helix) return loginNotConfigured(request);
      const code = authorizationCode(request);
      if (typeof code !== "string") return loginResult(ctx, request, code);
      const identity = await providerIdentity(ctx, idp, helix, code);
      if ("refusal" in identity) return loginResult(ctx, request, identity.refusal);
      if (readCookie(request, PURPOSE_COOKIE) === "bot")
        return await linkBot(ctx, request, identity.user, identity.tokens);
      const refusal = await consentRefusal(ctx, request, identity.user);
      if (refusal) return loginResult(ctx, request, refusal);
      return await finishLogin(ctx, request, identity.user, identity.tokens);
    },
    { detail: { summary: "OAuth redirect target: finishes the login", tags: ["auth"] } },
  );
}
