import type { CoreContext } from "../core/context.ts";
import { ApiError } from "../core/errors.ts";
import { type MaybePromise, throwWhenReady } from "../core/maybe-promise.ts";
import { SESSION_COOKIE, SESSION_TTL_MS, validateSession } from "../core/sessions.ts";
import type { RateLimits } from "../limits/rate-limits.ts";
import { notAuthenticated, presentedCredentials, readCookie, type SessionPrincipal } from "./auth.ts";
import { appendSetCookie, serializeCookie } from "./cookies.ts";
import { failedAuthentication } from "./quota.ts";

/** What the session checks read: the sessions, the public URL (Secure cookies), the limits. */
export interface SessionContext extends Pick<CoreContext, "db" | "clock" | "accounts"> {
  readonly publicUrl: string;
  readonly limits: RateLimits;
}
type HeaderBag = { headers: Record<string, unknown> };

/** Cookies get `Secure` when the public URL is https (CONTRACT §4). */
export function isSecureOrigin(ctx: Pick<SessionContext, "publicUrl">): boolean {
  return ctx.publicUrl.startsWith("https://");
}

export function sessionCookie(ctx: SessionContext, token: string, expiresAt: number): string {
  return serializeCookie(SESSION_COOKIE, token, {
    path: "/",
    httpOnly: true,
    sameSite: "Lax",
    secure: isSecureOrigin(ctx),
    expires: new Date(expiresAt),
    maxAgeSeconds: Math.min(SESSION_TTL_MS, expiresAt - ctx.clock.now()) / 1000,
  });
}

export function clearSessionCookie(ctx: SessionContext): string {
  return serializeCookie(SESSION_COOKIE, "", {
    path: "/",
    httpOnly: true,
    sameSite: "Lax",
    secure: isSecureOrigin(ctx),
    maxAgeSeconds: 0,
    expires: new Date(0),
  });
}

/**
 * The panel's principal: a valid `app_sess` cookie. An overlay token is not a panel credential; a
 * bad, expired or foreign session is answered 401 and its cookie cleared.
 */
export function requireSession(
  ctx: SessionContext,
  request: Request,
  set: HeaderBag,
): MaybePromise<SessionPrincipal> {
  // An overlay token is never a panel credential, not even beside a session (CONTRACT §4).
  if (presentedCredentials(request).overlayToken) {
    throw notAuthenticated("An overlay token only reads overlays; log in to the dashboard instead.");
  }
  const token = readCookie(request, SESSION_COOKIE);
  if (!token) throw notAuthenticated();
  return validateSession(ctx, token).then((session): MaybePromise<SessionPrincipal> => {
    if (!session) {
      const ended = new ApiError(401, "not_authenticated", "Your session has ended; please log in again.", {
        "set-cookie": clearSessionCookie(ctx),
      });
      return throwWhenReady(failedAuthentication(ctx.limits, request, ended));
    }
    if (session.renewed) appendSetCookie(set, sessionCookie(ctx, token, session.expiresAt));
    return { kind: "session", account: session.account, expiresAt: session.expiresAt };
  });
}
