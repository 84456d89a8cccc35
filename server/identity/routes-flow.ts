// The OAuth login flow's shared parts (CONTRACT §4): the login cookies that bind an attempt to this
// browser, the redirect to the identity provider, and the pages of a refused login. The routes that
// use them: routes-login.ts, routes-bot-link.ts and routes-callback.ts, composed in routes.ts.

import { currentInvocation, howToConfigure } from "../core/invocation.ts";
import { serializeCookie } from "../http/cookies.ts";
import { jsonError } from "../http/errors.ts";
import { isPublicOrigin, seenOrigin } from "../http/forwarded.ts";
import { isSecureOrigin } from "../http/session-auth.ts";
import type { RateLimits } from "../limits/rate-limits.ts";
import { BASE_SCOPES } from "../twitch/scopes.ts";
import { loginNotConfiguredPage } from "../web/first-run.ts";
import { pageOrError, wantsHtml } from "../web/page.ts";
import { type IdentityProviderClient, newOAuthState } from "./idp-client.ts";
import { normalizeTimezone } from "./login.ts";

/**
 * What the login flow reads: where users reach this server (the callback's address, Secure cookies),
 * the limits (whose address a request came from) and the identity provider (null when not configured).
 */
export interface LoginFlowContext {
  readonly publicUrl: string;
  readonly limits: RateLimits;
  readonly identityProvider: IdentityProviderClient | null;
}

/** The login attempt's state, bound to this browser for ten minutes (CONTRACT §4). */
export const STATE_COOKIE = "cuebot_oauth_state";
export const TIMEZONE_COOKIE = "cuebot_login_tz";
/**
 * Why this login was started: "chat" is the re-consent that adds the chat scope, "alerts" the one that
 * adds the alerts' scopes, "shoutout" and "moderators" those that add Twitch's own shoutout and the
 * moderator list (CONTRACT §6).
 */
export const PURPOSE_COOKIE = "cuebot_login_purpose";
/**
 * The cuebot account (its id) that started a re-consent: the callback refuses a grant from any
 * other Twitch user (CONTRACT §6). Empty for a login and a bot link, which may be anyone.
 */
export const ASKER_COOKIE = "cuebot_login_asker";
const LOGIN_COOKIES = [STATE_COOKIE, TIMEZONE_COOKIE, PURPOSE_COOKIE, ASKER_COOKIE] as const;
const STATE_TTL_SECONDS = 600;

/** The re-consents, each of which adds its feature's scopes to an account's grant. */
export const CONSENTS = ["chat", "alerts", "moderation", "shoutout", "moderators"] as const;
export type Consent = (typeof CONSENTS)[number];

export const consentOf = (raw: string | null | undefined): Consent | null =>
  CONSENTS.find((consent) => consent === raw) ?? null;

export function loginScopes(extra: string[]): string[] {
  return [...new Set([...BASE_SCOPES, ...extra])];
}

export function redirectUri(ctx: LoginFlowContext): string {
  return `${ctx.publicUrl}/auth/callback`;
}

const loginCookieAttributes = (ctx: LoginFlowContext, maxAgeSeconds: number) => ({
  path: "/auth",
  httpOnly: true,
  sameSite: "Lax" as const,
  secure: isSecureOrigin(ctx),
  maxAgeSeconds,
});

/** The attempt's cookies, each set anew so that nothing of an earlier attempt is left behind. */
function loginCookies(
  ctx: LoginFlowContext,
  values: Record<(typeof LOGIN_COOKIES)[number], string>,
): string[] {
  return LOGIN_COOKIES.map((name) =>
    serializeCookie(name, values[name], loginCookieAttributes(ctx, values[name] ? STATE_TTL_SECONDS : 0)),
  );
}

export function clearLoginCookies(ctx: LoginFlowContext): string[] {
  return LOGIN_COOKIES.map((name) => serializeCookie(name, "", loginCookieAttributes(ctx, 0)));
}

export const TRY_AGAIN = { href: "/", label: "Back to cuebot" };

export function loginNotConfigured(request: Request): Response {
  if (wantsHtml(request)) return loginNotConfiguredPage(currentInvocation());
  const message = `Twitch login is not configured on this server. ${howToConfigure()}`;
  return jsonError(503, "login_not_configured", message);
}

/** Why a login is refused, as its page says it; the page's button starts a login unless `action` says otherwise. */
export interface LoginRefusal {
  status: number;
  code: string;
  title: string;
  message: string;
  action?: { href: string; label: string };
}

/**
 * A failed login as a page (JSON for a caller that is not a browser), with the login cookies cleared
 * so a failed attempt can't be replayed.
 */
export function loginResult(ctx: LoginFlowContext, request: Request, refusal: LoginRefusal): Response {
  const { status, code, title, message, action = { href: "/auth/login", label: "Try again" } } = refusal;
  const response = pageOrError(request, status, code, { title, message, action });
  for (const cookie of clearLoginCookies(ctx)) response.headers.append("set-cookie", cookie);
  return response;
}

interface AuthorizationRequest {
  /** This route, to move to the public host name first. */
  path: string;
  scopes: string[];
  forceVerify: boolean;
  /** What the callback finishes: a login, the chat or alerts re-consent, or linking a bot account. */
  purpose: "login" | Consent | "bot";
  /** The account a re-consent is for, when the browser has its session: only its own grant is taken. */
  askedBy?: number;
}

/** Marks a login that was already moved to the public URL once: it is never moved again. */
const MOVED_PARAM = "moved";

/**
 * The state cookie must be set on the host the provider sends the browser back to: a login begun at
 * http://127.0.0.1:8080 while the public URL is http://localhost:8080 moves there first. Only once:
 * behind a proxy that rewrites Host and sends no X-Forwarded-Host, the browser already is at the
 * public URL, and a second move would loop (each hop spending the /auth allowance).
 */
function movedToPublicUrl(
  ctx: LoginFlowContext,
  request: Request,
  url: URL,
  path: string,
): Response | undefined {
  if (url.searchParams.has(MOVED_PARAM)) return undefined;
  const seen = seenOrigin(request, ctx.limits.clientIp.fromTrustedProxy(request));
  if (isPublicOrigin(seen, new URL(ctx.publicUrl))) return undefined;
  const query = `${url.search ? `${url.search}&` : "?"}${MOVED_PARAM}=1`;
  return new Response(null, {
    status: 302,
    headers: { location: `${ctx.publicUrl}${path}${query}`, "cache-control": "no-store" },
  });
}

/** Redirects to the identity provider with a fresh state bound to this browser (CONTRACT §4). */
export function startAuthorization(
  ctx: LoginFlowContext,
  request: Request,
  wanted: AuthorizationRequest,
): Response {
  const idp = ctx.identityProvider;
  if (!idp) return loginNotConfigured(request);
  const url = new URL(request.url);
  const moved = movedToPublicUrl(ctx, request, url, wanted.path);
  if (moved) return moved;
  const state = newOAuthState();
  const location = idp.authorizationUrl({
    redirectUri: redirectUri(ctx),
    state,
    scopes: wanted.scopes,
    forceVerify: wanted.forceVerify,
  });
  const response = new Response(null, { status: 302, headers: { location, "cache-control": "no-store" } });
  const timezone = normalizeTimezone(url.searchParams.get("tz"));
  const cookies = loginCookies(ctx, {
    [STATE_COOKIE]: state,
    [TIMEZONE_COOKIE]: timezone,
    [PURPOSE_COOKIE]: wanted.purpose,
    [ASKER_COOKIE]: wanted.askedBy === undefined ? "" : String(wanted.askedBy),
  });
  for (const cookie of cookies) {
    response.headers.append("set-cookie", cookie);
  }
  return response;
}
