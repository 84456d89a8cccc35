import { Elysia } from "elysia";
import type { Context } from "../context.ts";
import { SESSION_COOKIE } from "../identity/sessions.ts";
import { readCookie } from "./auth.ts";
import { jsonError } from "./errors.ts";

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * SameSite=Lax alone does not stop same-site cross-origin forgeries (the Copenhagen Book): every
 * state-changing request that carries the session cookie must come from our own origin. Checked in
 * onRequest, before routing and before any handler runs; a missing Origin is refused too.
 */
export function csrfProtection(ctx: Context) {
  return new Elysia({ name: "cuebot.csrf" }).onRequest(({ request }) => {
    if (!STATE_CHANGING.has(request.method)) return;
    if (!readCookie(request, SESSION_COOKIE)) return;
    const origin = request.headers.get("origin");
    if (origin && origin === new URL(ctx.publicUrl).origin) return;
    return jsonError(
      403,
      "bad_origin",
      origin
        ? `Requests from ${origin} may not change this account; use the dashboard at ${new URL(ctx.publicUrl).origin}.`
        : "This request has no Origin header, so it cannot change the account; use the dashboard.",
    );
  });
}
