import type { Clock } from "../../../core/clock.ts";
import type { TwitchSimKnobs } from "../knobs.ts";
import { count, type TwitchSimStats } from "../stats.ts";
import type { AccessToken, TokenStore } from "../tokens.ts";
import { bucketKey } from "./buckets.ts";
import { helixError, REASONS } from "./http.ts";
import type { HelixRoute } from "./route.ts";

/**
 * What runs before every Helix endpoint, in twitch-cli's order (reference/twitch.md §3.3) with real
 * Twitch's status codes: authentication (Client-Id, Bearer, expiry), the rate-limit bucket and its
 * `Ratelimit-*` headers, the route, the token kind, the scope, and the injected failures.
 */

/** What Twitch puts in `message` for the statuses tests inject (5xx bodies are often empty, §2.0). */
const FAILURE_MESSAGES: Record<number, string> = {
  409: "You may not update the user's ban state while someone else is updating the state. Please retry your request.",
  429: "Too Many Requests",
  500: "",
  502: "",
  503: "",
};

/** Send Chat Message has its own, larger bucket (reference/twitch-chat.md §4), kept in ../chat/send.ts. */
const OWN_BUCKET_ROUTE = "POST /chat/messages";

export interface HelixMiddlewareOptions {
  clock: Clock;
  knobs: TwitchSimKnobs;
  tokens: TokenStore;
  routes: Map<string, HelixRoute>;
  stats: TwitchSimStats;
}

/** Serves one Helix request (`routeKey` like "POST /clips") through the middleware to its route. */
export type HelixHandler = (request: Request, url: URL, routeKey: string) => Promise<Response>;

export function createHelixMiddleware({
  clock,
  knobs,
  tokens,
  routes,
  stats,
}: HelixMiddlewareOptions): HelixHandler {
  const buckets = knobs.rateLimit;

  /** The caller's bucket (a request that names no valid token is shown a full bucket). */
  function rateLimitHeaders(key: string | null): Record<string, string> {
    return {
      "Ratelimit-Limit": String(buckets.limit),
      "Ratelimit-Remaining": String(key === null ? buckets.limit : buckets.left(key)),
      "Ratelimit-Reset": String(Math.ceil(buckets.resetAt / 1000)),
    };
  }

  function authenticate(request: Request): AccessToken | Response {
    const clientHeader = request.headers.get("client-id");
    const auth = request.headers.get("authorization") ?? "";
    if (!clientHeader || !auth.startsWith("Bearer ") || auth.length < 8) {
      return helixError(401, "OAuth token is missing", rateLimitHeaders(null));
    }
    const entry = tokens.access.get(auth.slice(7));
    if (!entry) return helixError(401, "Invalid OAuth token", rateLimitHeaders(null));
    if (entry.clientId !== clientHeader) {
      return helixError(401, "Client ID and OAuth token do not match", rateLimitHeaders(null));
    }
    if (entry.expiresAt <= clock.now()) return helixError(401, "Invalid OAuth token", rateLimitHeaders(null));
    return entry;
  }

  /** The next injected failure of a route, used up as it is answered. */
  function injectedFailure(routeKey: string): Response | null {
    const failure = knobs.failNext.get(routeKey);
    if (!failure) return null;
    const left = (failure.times ?? 1) - 1;
    if (left > 0) failure.times = left;
    else knobs.failNext.delete(routeKey);
    return helixError(
      failure.status,
      failure.message ?? FAILURE_MESSAGES[failure.status] ?? REASONS[failure.status] ?? "",
    );
  }

  /** Auth, bucket, route, token kind, scope, injected failure, then the endpoint. */
  async function serve(request: Request, url: URL, routeKey: string, key: string | null): Promise<Response> {
    const entry = authenticate(request);
    if (entry instanceof Response) return entry;
    if (key !== null && !buckets.take(key)) return helixError(429, "Too Many Requests");
    const route = routes.get(routeKey);
    if (!route) return helixError(404, "Not Found");
    if (route.userToken && !entry.userId) return helixError(401, "Missing User OAUTH Token");
    if (route.scopes.length > 0 && !route.scopes.some((s) => entry.scopes.includes(s))) {
      // Twitch names one scope ("Missing scope: moderator:manage:banned_users", reference §2.0); for
      // any-of routes it is the first, primary one the reference lists.
      return helixError(401, `Missing scope: ${route.scopes[0]}`);
    }
    const failure = injectedFailure(routeKey);
    if (failure) return failure;
    return route.handle({
      request,
      url,
      query: url.searchParams,
      caller: { userId: entry.userId, scopes: entry.scopes },
    });
  }

  /** The bucket a request draws from: null for Send Chat Message (its own) and for an unknown token. */
  function callerBucket(request: Request, routeKey: string): string | null {
    if (routeKey === OWN_BUCKET_ROUTE) return null;
    const token = (request.headers.get("authorization") ?? "").slice("Bearer ".length);
    const entry = tokens.access.get(token);
    return entry ? bucketKey(entry.clientId, entry.userId) : null;
  }

  return async (request, url, routeKey) => {
    const key = callerBucket(request, routeKey);
    const response = await serve(request, url, routeKey, key);
    if (response.status === 429) count(stats.tooMany, routeKey);
    if (routeKey !== OWN_BUCKET_ROUTE) {
      for (const [k, v] of Object.entries(rateLimitHeaders(key))) response.headers.set(k, v);
    }
    return response;
  };
}
