import { Elysia } from "elysia";
import type { Account } from "../../../db/accounts.ts";
import { storeChatBot, writeChatEnabled } from "../../../db/chat.ts";
import { grantedScopes } from "../../../db/oauth-tokens.ts";
import { StoreUnavailableError } from "../../../db/store-unavailable.ts";
import { BOT_LINK_SCOPES } from "../../chat/bot-account.ts";
import { READ_CHAT_SCOPE } from "../../chat/runtime.ts";
import {
  BASE_SCOPES,
  IdentityProviderError,
  newOAuthState,
  type ProviderTokenSet,
} from "../../identity/idp-client.ts";
import { completeLogin, normalizeTimezone } from "../../identity/login.ts";
import { endSession, SESSION_COOKIE } from "../../identity/sessions.ts";
import type { Context } from "../../runtime.ts";
import { HelixError, type HelixUser } from "../../twitch/helix-client.ts";
import { pageOrError } from "../../web/page.ts";
import { presentedCredentials, readCookie } from "../auth.ts";
import { appendSetCookie, serializeCookie } from "../cookies.ts";
import { ApiError } from "../errors.ts";
import { isPublicOrigin, seenOrigin } from "../forwarded.ts";
import { ORIGIN_NOTE, PANEL_SECURITY } from "../panel/docs.ts";
import { authenticatePanel } from "../panel/guard.ts";
import { clearSessionCookie, isSecureOrigin, sessionCookie } from "../session-auth.ts";

/** The login attempt's state, bound to this browser for ten minutes (CONTRACT §4). */
const STATE_COOKIE = "cuebot_oauth_state";
const TIMEZONE_COOKIE = "cuebot_login_tz";
/** Why this login was started: "chat" is the re-consent that adds the chat scope (CONTRACT §6). */
const PURPOSE_COOKIE = "cuebot_login_purpose";
const STATE_TTL_SECONDS = 600;

export function loginScopes(extra: string[]): string[] {
  return [...new Set([...BASE_SCOPES, ...extra])];
}

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

function redirectUri(ctx: Context): string {
  return `${ctx.publicUrl}/auth/callback`;
}

function loginCookies(ctx: Context, state: string, timezone: string, purpose: string): string[] {
  const attributes = {
    path: "/auth",
    httpOnly: true,
    sameSite: "Lax" as const,
    secure: isSecureOrigin(ctx),
    maxAgeSeconds: STATE_TTL_SECONDS,
  };
  return [
    serializeCookie(STATE_COOKIE, state, attributes),
    serializeCookie(TIMEZONE_COOKIE, timezone, attributes),
    serializeCookie(PURPOSE_COOKIE, purpose, attributes),
  ];
}

function clearLoginCookies(ctx: Context): string[] {
  const attributes = {
    path: "/auth",
    httpOnly: true,
    sameSite: "Lax" as const,
    secure: isSecureOrigin(ctx),
    maxAgeSeconds: 0,
  };
  return [STATE_COOKIE, TIMEZONE_COOKIE, PURPOSE_COOKIE].map((name) => serializeCookie(name, "", attributes));
}

const TRY_AGAIN = { href: "/", label: "Back to cuebot" };

function loginNotConfigured(request: Request): Response {
  const message =
    "Twitch login is not configured on this server: run `cuebot init --twitch-client-id <id> --twitch-client-secret <secret>` (or set CUEBOT_TWITCH_CLIENT_ID and CUEBOT_TWITCH_CLIENT_SECRET) and restart cuebot.";
  return pageOrError(request, 503, "login_not_configured", {
    title: "Login is not configured",
    message,
    action: TRY_AGAIN,
  });
}

/**
 * A failed login as a page (JSON for a caller that is not a browser), with the login cookies cleared
 * so a failed attempt can't be replayed.
 */
function loginResult(
  ctx: Context,
  request: Request,
  refusal: { status: number; code: string; title: string; message: string },
): Response {
  const { status, code, title, message } = refusal;
  const response = pageOrError(request, status, code, {
    title,
    message,
    action: { href: "/auth/login", label: "Try again" },
  });
  for (const cookie of clearLoginCookies(ctx)) response.headers.append("set-cookie", cookie);
  return response;
}

interface AuthorizationRequest {
  /** This route, to move to the public host name first. */
  path: string;
  scopes: string[];
  forceVerify: boolean;
  /** What the callback finishes: a login, the chat re-consent, or linking a bot account. */
  purpose: "login" | "chat" | "bot";
}

/** Marks a login that was already moved to the public URL once: it is never moved again. */
const MOVED_PARAM = "moved";

/**
 * The state cookie must be set on the host the provider sends the browser back to: a login begun at
 * http://127.0.0.1:8080 while the public URL is http://localhost:8080 moves there first. Only once:
 * behind a proxy that rewrites Host and sends no X-Forwarded-Host, the browser already is at the
 * public URL, and a second move would loop (each hop spending the /auth allowance).
 */
function movedToPublicUrl(ctx: Context, request: Request, url: URL, path: string): Response | undefined {
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
function startAuthorization(ctx: Context, request: Request, wanted: AuthorizationRequest): Response {
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
  for (const cookie of loginCookies(ctx, state, timezone, wanted.purpose)) {
    response.headers.append("set-cookie", cookie);
  }
  return response;
}

/** The callback of a bot-account login: store the bot for the logged-in streamer; no account, no session. */
async function linkBot(
  ctx: Context,
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

export function authRoutes(ctx: Context) {
  return new Elysia({ name: "cuebot.auth-routes" })
    .get(
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
    )
    .get(
      "/auth/chat-bot",
      async ({ request }) => {
        // Only a logged-in streamer links a bot to their channel.
        try {
          await authenticatePanel(ctx, request, { headers: {} });
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
          scopes: [...BOT_LINK_SCOPES],
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
    )
    .get(
      "/auth/callback",
      async ({ request }) => {
        const idp = ctx.identityProvider;
        if (!idp || !ctx.helix) return loginNotConfigured(request);
        const url = new URL(request.url);
        const expectedState = readCookie(request, STATE_COOKIE);
        const state = url.searchParams.get("state");
        // Nothing in the callback is believed before its state matches this browser's login attempt,
        // and the provider's words are never echoed (a crafted link could put any text there).
        if (!state || !expectedState || state !== expectedState) {
          return loginResult(ctx, request, {
            status: 400,
            code: "invalid_state",
            title: "This login link is not valid",
            message:
              "The login attempt expired or did not start in this browser, so nothing was changed. Please start again.",
          });
        }
        if (url.searchParams.get("error")) {
          const denied = url.searchParams.get("error") === "access_denied";
          return loginResult(ctx, request, {
            status: denied ? 403 : 400,
            code: denied ? "access_denied" : "login_failed",
            title: denied ? "Login cancelled" : "Login failed",
            message: denied
              ? "You did not allow cuebot to use your Twitch account, so nothing was created. You can try again at any time."
              : "Twitch could not complete the login, so nothing was changed. Please try again.",
          });
        }
        const code = url.searchParams.get("code");
        if (!code)
          return loginResult(ctx, request, {
            status: 400,
            code: "login_failed",
            title: "Login failed",
            message: "Twitch sent no authorization code. Please start again.",
          });

        let tokens: Awaited<ReturnType<typeof idp.exchangeCode>>;
        let user: Awaited<ReturnType<NonNullable<Context["helix"]>["getUsers"]>>[number] | undefined;
        try {
          tokens = await idp.exchangeCode(code, redirectUri(ctx));
          user = (await ctx.helix.getUsers(tokens.accessToken))[0];
        } catch (error) {
          if (error instanceof IdentityProviderError && error.kind === "rejected") {
            return loginResult(ctx, request, {
              status: 400,
              code: "login_failed",
              title: "This login link was already used",
              message:
                "Twitch refused the login code (it is single-use and short-lived). Please start again.",
            });
          }
          const unreachable = error instanceof IdentityProviderError || error instanceof HelixError;
          if (!unreachable) throw error;
          ctx.log.warn("login failed: the identity provider is unavailable", { error });
          return loginResult(ctx, request, {
            status: 502,
            code: "upstream_error",
            title: "Twitch is not answering",
            message:
              "cuebot could not reach Twitch to finish the login; nothing was changed. Please try again in a minute.",
          });
        }
        if (!user)
          return loginResult(ctx, request, {
            status: 502,
            code: "upstream_error",
            title: "Twitch is not answering",
            message: "Twitch did not say who logged in; nothing was changed. Please try again.",
          });

        if (readCookie(request, PURPOSE_COOKIE) === "bot") return await linkBot(ctx, request, user, tokens);
        const timezone = normalizeTimezone(readCookie(request, TIMEZONE_COOKIE));
        const login = await completeLogin(
          ctx,
          user,
          tokens,
          timezone,
          request.headers.get("user-agent") ?? "",
        );
        ctx.log.info(login.created ? "account created at first login" : "streamer logged in", {
          login: login.account.login,
        });
        // The re-consent for native chat switches it on when Twitch granted the scope; any login
        // brings new tokens, which the running chat connection picks up.
        const chatConsent = readCookie(request, PURPOSE_COOKIE) === "chat";
        if (chatConsent && tokens.scopes.includes(READ_CHAT_SCOPE)) {
          await writeChatEnabled(ctx.db, login.account.id, true, ctx.clock.now());
        }
        await ctx.chat.sync(login.account.id);
        const response = new Response(null, {
          status: 302,
          headers: { location: chatConsent ? "/dashboard#/chat" : "/dashboard", "cache-control": "no-store" },
        });
        response.headers.append(
          "set-cookie",
          sessionCookie(ctx, login.session.token, login.session.expiresAt),
        );
        for (const cookie of clearLoginCookies(ctx)) response.headers.append("set-cookie", cookie);
        return response;
      },
      { detail: { summary: "OAuth redirect target: finishes the login", tags: ["auth"] } },
    )
    .post(
      "/auth/logout",
      async ({ request, set }) => {
        const token = readCookie(request, SESSION_COOKIE);
        if (token) await endSession(ctx, token);
        appendSetCookie(set, clearSessionCookie(ctx));
        return { status: 200 as const, data: { loggedOut: true } };
      },
      { detail: { summary: "End this browser's session", tags: ["auth"] } },
    )
    .get(
      "/api/system/validate",
      async ({ request, set }) => {
        // An overlay token is never a session, not even next to one (SERVICE.md §5).
        if (presentedCredentials(request).overlayToken) {
          throw new ApiError(403, "overlay_token_forbidden", "An overlay token cannot validate a session.");
        }
        const { account, expiresAt } = await authenticatePanel(ctx, request, set);
        return {
          status: 200 as const,
          valid: true,
          tokenExpiresAt: new Date(expiresAt).toISOString(),
          user: {
            id: account.twitchUserId,
            login: account.login,
            display_name: account.displayName,
            profile_image_url: account.profileImageUrl,
            timezone: account.timezone,
          },
        };
      },
      {
        detail: {
          summary: "Validate the dashboard session",
          tags: ["panel"],
          security: PANEL_SECURITY,
          description: ORIGIN_NOTE,
        },
      },
    );
}
