import { Elysia } from "elysia";
import type { IpLimitScope } from "../limits/ip-quotas.ts";
import type { Context } from "../runtime.ts";
import { limitRefusal } from "./quota.ts";
import { type RequestInfo, requestInfo } from "./request-info.ts";
import { hookOf } from "./sync-hook.ts";

/** The panel session cookie; only its presence matters here, the auth layer checks its value. */
const SESSION_COOKIE = /(?:^|;)\s*app_sess=[^;\s]/;

type Credential = "apiKey" | "session" | "overlayToken";

const OVERLAY_TOKEN: readonly Credential[] = ["overlayToken"];
const KEY_OR_SESSION: readonly Credential[] = ["apiKey", "session"];
const SESSION: readonly Credential[] = ["session"];
const API_KEY: readonly Credential[] = ["apiKey"];
const NONE: readonly Credential[] = [];

/**
 * The credentials that can authenticate a path: bot commands and the game API take the API key; the
 * panel takes the session (get-clips and chatters also the key); overlay reads take the overlay token.
 * Anything else presented there authenticates nothing, so it must not lift the anonymous limit.
 */
function acceptedCredentials(rawPath: string): readonly Credential[] {
  const pathname = rawPath.length > 1 && rawPath.endsWith("/") ? rawPath.replace(/\/+$/, "") : rawPath;
  if (pathname.startsWith("/api/overlay/")) return OVERLAY_TOKEN;
  if (pathname === "/api/dashboard/get-clips" || pathname === "/api/dashboard/chatters")
    return KEY_OR_SESSION;
  if (pathname.startsWith("/api/dashboard/") || pathname === "/api/system/validate") return SESSION;
  if (
    pathname === "/api/followage" ||
    pathname.startsWith("/api/bot/") ||
    pathname.startsWith("/api/game/")
  ) {
    return API_KEY;
  }
  // An /api path no route serves authenticates nothing: it stays under the anonymous limit.
  return NONE;
}

/** A value that says something: not absent, not blank. */
function present(value: string | null): boolean {
  return value !== null && value.trim() !== "";
}

/**
 * Whether the query carries `name`. The raw query decides most requests without parsing it: no
 * "name=" (`marker`), and no %-escape that could spell the name, means the parameter is absent.
 */
function inQuery(info: RequestInfo, name: string, marker: string): boolean {
  if (!info.hasQuery) return false;
  const search = info.search;
  return (search.includes(marker) || search.includes("%")) && present(info.query.get(name));
}

/**
 * Whether the request presents a credential this path accepts. Only presence is checked: a wrong one
 * is the auth layer's business, counted as a failed authentication.
 */
export function presentsCredential(request: Request, info: RequestInfo = requestInfo(request)): boolean {
  for (const credential of acceptedCredentials(info.path)) {
    const presented =
      credential === "apiKey"
        ? inQuery(info, "apiKey", "apiKey=") || present(request.headers.get("x-api-key"))
        : credential === "overlayToken"
          ? inQuery(info, "token", "token=") || present(request.headers.get("x-overlay-token"))
          : SESSION_COOKIE.test(request.headers.get("cookie") ?? "");
    if (presented) return true;
  }
  return false;
}

/**
 * Which per-IP limit governs a path: /auth/* has its own; /api/* is protected, so only callers with no
 * credential at all are limited per address (those with one meet their account's quota instead);
 * everything else is a page or a static asset, unknown paths included, so 404 scans are limited too.
 */
export function ipLimitScope(pathname: string, hasCredential: boolean): IpLimitScope | null {
  if (pathname === "/healthz") return null;
  if (pathname === "/auth" || pathname.startsWith("/auth/")) return "auth";
  if (pathname === "/api" || pathname.startsWith("/api/")) return hasCredential ? null : "anonymous";
  return "publicPages";
}

/**
 * Per-IP limits in the global onRequest hook: it runs before routing, so unknown routes are covered,
 * and before any parsing or credential lookup, so a flood costs one counter update per request.
 * With limits shared in Redis the hook waits for the check's round trip.
 */
export function ipLimits(ctx: Context) {
  return new Elysia({ name: "cuebot.ip-limits" }).onRequest(
    hookOf(({ request, set }) => {
      const info = requestInfo(request);
      // A credential matters only under /api (see ipLimitScope); elsewhere it is not looked for.
      const path = info.path;
      const scope = ipLimitScope(path, path.startsWith("/api") && presentsCredential(request, info));
      // The client address costs a socket lookup (and X-Forwarded-For): only when a limit needs it
      // here, else when a later layer asks (a failed authentication).
      if (scope === null) return;
      const decision = ctx.limits.perIp.check(scope, ctx.limits.clientIp.of(request));
      return limitRefusal(set, request, decision, scope);
    }, ctx.limits.shared),
  );
}
