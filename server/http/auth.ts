import type { Account } from "../../db/accounts.ts";
import type { CoreContext } from "../core/context.ts";
import { ApiError } from "../core/errors.ts";
import { andThen, type MaybePromise, throwWhenReady } from "../core/maybe-promise.ts";
import type { RateLimits } from "../limits/rate-limits.ts";
import { enforceLimit, failedAuthentication, type HeaderTarget, limitRefusal } from "./quota.ts";
import { requestInfo } from "./request-info.ts";

/**
 * Who is calling. Bot routes accept an API key; panel routes a session; overlay reads an overlay
 * token. Each feature calls one of the `require…` functions from a `derive` so that a missing or
 * wrong credential is answered 401 before any input validation runs (DESIGN.md, "auth before
 * validation").
 */
export interface ApiKeyPrincipal {
  kind: "api-key";
  account: Account;
}

export interface PresentedCredentials {
  apiKey?: string;
  overlayToken?: string;
}

/** Syntactically a UUID: anything else cannot be a key, so it is refused without a lookup. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function presentedCredentials(request: Request): PresentedCredentials {
  const info = requestInfo(request);
  const query = info.hasQuery ? info.query : null;
  const fromQuery = query?.get("apiKey")?.trim() || undefined;
  const fromHeader = request.headers.get("x-api-key")?.trim() || undefined;
  if (fromQuery && fromHeader && fromQuery !== fromHeader) {
    throw new ApiError(
      400,
      "conflicting_api_keys",
      "The apiKey query parameter and the X-Api-Key header carry different keys; send one.",
    );
  }
  const overlayToken =
    query?.get("token")?.trim() || request.headers.get("x-overlay-token")?.trim() || undefined;
  return { apiKey: fromQuery ?? fromHeader, overlayToken };
}

export function missingApiKey(): ApiError {
  return new ApiError(
    401,
    "missing_api_key",
    "An API key is required: add ?apiKey=<your key> or the X-Api-Key header (find it in the dashboard).",
  );
}

/** What the API-key checks read: the account directory for the key, the limits for its quota. */
export interface ApiKeyContext extends Pick<CoreContext, "accounts"> {
  readonly limits: RateLimits;
}

export function invalidApiKey(): ApiError {
  return new ApiError(401, "invalid_api_key", "That API key is not valid; copy it again from the dashboard.");
}

/**
 * The API key's account, or null when no key was presented; a wrong key is an error (a rejection once
 * a shared failed-authentication count has answered).
 */
export function optionalApiKey(ctx: ApiKeyContext, request: Request): MaybePromise<ApiKeyPrincipal | null> {
  const presented = presentedCredentials(request);
  // An overlay token only ever reads overlays: presented here, even beside a key, it is refused.
  if (presented.overlayToken) {
    throw new ApiError(401, "missing_api_key", "An overlay token only reads overlays; use the API key here.");
  }
  if (!presented.apiKey) return null;
  const found = UUID.test(presented.apiKey) ? ctx.accounts.byCredential("api-key", presented.apiKey) : null;
  // A cached key (the common case) is answered without a closure; a miss once the database has.
  if (!(found instanceof Promise)) return apiKeyPrincipal(ctx, request, found);
  return found.then((account) => apiKeyPrincipal(ctx, request, account));
}

function apiKeyPrincipal(
  ctx: ApiKeyContext,
  request: Request,
  account: Account | null,
): MaybePromise<ApiKeyPrincipal> {
  // A wrong key counts against the caller's address; past the limit, every further try is a 429.
  if (!account) return throwWhenReady(failedAuthentication(ctx.limits, request, invalidApiKey()));
  return { kind: "api-key", account };
}

export function requireApiKey(ctx: ApiKeyContext, request: Request): MaybePromise<ApiKeyPrincipal> {
  return andThen(optionalApiKey(ctx, request), (principal) => {
    if (!principal) throw missingApiKey();
    return principal;
  });
}

/**
 * Bot endpoints: a valid API key, counted against the bot quota of the key's role. Over the quota,
 * `refusal` is the finished 429 reply, which the route's beforeHandle returns (no throw on the path
 * a flooding bot takes every time).
 */
export function authenticateBot(
  ctx: ApiKeyContext,
  request: Request,
  set: HeaderTarget,
): MaybePromise<{ principal: ApiKeyPrincipal; refusal: Response | undefined }> {
  return andThen(requireApiKey(ctx, request), (principal) =>
    andThen(
      limitRefusal(set, request, ctx.limits.accounts.checkBot(principal.account), "bot"),
      (refusal) => ({
        principal,
        refusal,
      }),
    ),
  );
}

/**
 * The game API: anonymous callers are served under the per-IP anonymous limit (already applied in
 * onRequest); a valid key switches to its role's bot quota.
 */
export function authenticateOptionalBot(
  ctx: ApiKeyContext,
  request: Request,
  set: HeaderTarget,
): MaybePromise<ApiKeyPrincipal | null> {
  return andThen(optionalApiKey(ctx, request), (principal) =>
    principal
      ? andThen(enforceLimit(set, ctx.limits.accounts.checkBot(principal.account), "bot"), () => principal)
      : null,
  );
}

export interface SessionPrincipal {
  kind: "session";
  account: Account;
  /** When the session expires (after any renewal this request caused). */
  expiresAt: number;
}

export function notAuthenticated(message = "Please log in to the dashboard first."): ApiError {
  return new ApiError(401, "not_authenticated", message);
}

/** The value of one cookie from the raw header (the panel derive runs before Elysia's cookie parsing matters). */
export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const raw = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(raw);
      } catch {
        return raw;
      }
    }
  }
  return undefined;
}
