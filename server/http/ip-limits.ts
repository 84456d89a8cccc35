import { Elysia } from "elysia";
import type { Context } from "../context.ts";
import type { IpLimitScope } from "../limits/ip-quotas.ts";
import { enforceLimit } from "./quota.ts";

/** The panel session cookie; only its presence matters here, the auth layer checks its value. */
const SESSION_COOKIE = /(?:^|;)\s*app_sess=[^;\s]/;

/**
 * Whether the request presents any credential (API key, session cookie, overlay token). Only presence
 * is checked: a wrong credential is the auth layer's business, counted as a failed authentication.
 */
export function presentsCredential(request: Request, url: URL): boolean {
  const { headers } = request;
  const present = (value: string | null) => value !== null && value.trim() !== "";
  return (
    present(url.searchParams.get("apiKey")) ||
    present(headers.get("x-api-key")) ||
    present(url.searchParams.get("token")) ||
    present(headers.get("x-overlay-token")) ||
    SESSION_COOKIE.test(headers.get("cookie") ?? "")
  );
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
 */
export function ipLimits(ctx: Context) {
  return new Elysia({ name: "cuebot.ip-limits" }).onRequest(({ request, server, set }) => {
    const ip = ctx.limits.clientIp.resolve(request, server);
    const url = new URL(request.url);
    const scope = ipLimitScope(url.pathname, presentsCredential(request, url));
    if (scope) enforceLimit(set, ctx.limits.perIp.check(scope, ip), scope);
  });
}
