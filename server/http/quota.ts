import { ApiError } from "../core/errors.ts";
import { andThen, type MaybePromise } from "../core/maybe-promise.ts";
import type { AccountQuotaName } from "../limits/account-quotas.ts";
import type { LimitDecision } from "../limits/decision.ts";
import type { IpLimitScope } from "../limits/ip-quotas.ts";
import type { Decided, RateLimits } from "../limits/rate-limits.ts";
import { errorReply } from "./errors.ts";
import type { ResponseSet } from "./final-response.ts";

/** Which limit governed a response; it picks the words of the 429 message. */
export type LimitName = AccountQuotaName | IpLimitScope | "failedAuth";

/** Where Elysia collects response headers (`set`). */
export interface HeaderTarget {
  headers: Record<string, string | number>;
}

/** The contract's headers for one decision: always Limit and Remaining, plus Retry-After when refused. */
export function rateLimitHeaders(decision: LimitDecision): Record<string, string> {
  const headers: Record<string, string> = {
    "x-ratelimit-limit": String(decision.limit),
    "x-ratelimit-remaining": String(decision.allowed ? decision.remaining : 0),
  };
  if (!decision.allowed) headers["retry-after"] = String(decision.retryAfterSeconds);
  return headers;
}

const WHAT_WAS_EXCEEDED: Record<LimitName, (limit: number) => string> = {
  bot: (n) => `This API key has used its bot quota (${n} requests per minute)`,
  heavy: (n) => `This API key has used its quota for clips and chatters (${n} requests per minute)`,
  panel: (n) => `This account has made too many dashboard and overlay requests (${n} per minute)`,
  chat: (n) => `This channel's chat has used its command budget (${n} per minute)`,
  anonymous: (n) => `Too many requests without an API key or session from your address (${n} per minute)`,
  publicPages: (n) => `Too many page requests from your address (${n} per minute)`,
  auth: (n) => `Too many login requests from your address (${n} per 5 minutes)`,
  failedAuth: (n) => `Too many failed authentication attempts from your address (${n} per minute)`,
};

/** The 429 `rate_limited` error for a refused decision, carrying its headers. */
export function rateLimitedError(decision: LimitDecision, limit: LimitName): ApiError {
  return new ApiError(429, "rate_limited", rateLimitedMessage(decision, limit), rateLimitHeaders(decision));
}

function rateLimitedMessage(decision: LimitDecision, limit: LimitName): string {
  const seconds = decision.retryAfterSeconds;
  const wait = `${seconds} second${seconds === 1 ? "" : "s"}`;
  return `${WHAT_WAS_EXCEEDED[limit](decision.limit)}; try again in ${wait}.`;
}

/**
 * Puts the decision's headers on the response and throws 429 when it was refused. Headers set here
 * survive into error responses (a 401 or 404 after this still shows the limit), and a later, more
 * specific limit (the account's quota once the key is known) simply overwrites them. A shared
 * limiter's decision arrives later: then so does this, and a refusal rejects.
 */
export function enforceLimit(set: HeaderTarget, decided: Decided, limit: LimitName): MaybePromise<void> {
  return andThen(decided, (decision) => {
    Object.assign(set.headers, rateLimitHeaders(decision));
    if (!decision.allowed) throw rateLimitedError(decision, limit);
  });
}

/**
 * The same as enforceLimit for the hooks on the hottest paths (per-IP limits, the bot quota): a
 * refusal comes back as the finished 429 reply, for the hook to return, instead of being thrown.
 */
export function limitRefusal(
  set: HeaderTarget,
  request: Request,
  decided: Decided,
  limit: LimitName,
): MaybePromise<Response | undefined> {
  return andThen(decided, (decision) => {
    // Refused, the headers (Retry-After among them) are on `set` already, so the reply carries them.
    Object.assign(set.headers, rateLimitHeaders(decision));
    if (decision.allowed) return undefined;
    return errorReply(set as ResponseSet, request, 429, "rate_limited", rateLimitedMessage(decision, limit));
  });
}

/**
 * For the auth layer, at the point a presented credential turned out wrong (bad key, bad or expired
 * session, wrong overlay token): counts the failure against the caller's address and returns what to
 * throw — `error` with the failed-authentication limit's headers, or 429 once that address is past it.
 */
export function failedAuthentication(
  limits: RateLimits,
  request: Request,
  error: ApiError,
): MaybePromise<ApiError> {
  return andThen(limits.failedAuth.record(limits.clientIp.of(request)), (decision) => {
    if (!decision.allowed) return rateLimitedError(decision, "failedAuth");
    return new ApiError(error.status, error.code, error.message, {
      ...error.headers,
      ...rateLimitHeaders(decision),
    });
  });
}
