import { Elysia } from "elysia";
import { SESSION_COOKIE } from "../core/sessions.ts";
import type { Context } from "../runtime.ts";
import { readCookie } from "./auth.ts";
import { jsonError } from "./errors.ts";
import { syncHook } from "./sync-hook.ts";

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * SameSite=Lax alone does not stop same-site cross-origin forgeries (the Copenhagen Book): every
 * state-changing request that carries the session cookie must come from our own origin. Checked in
 * onRequest, before routing and before any handler runs; a missing Origin is refused too.
 */
/** The public URL can change after start-up (the port is known once listening): read it per request. */
function crossOriginRefusal(request: Request, publicUrl: string): Response | undefined {
  if (!STATE_CHANGING.has(request.method)) return undefined;
  if (!readCookie(request, SESSION_COOKIE)) return undefined;
  const publicOrigin = new URL(publicUrl).origin;
  const origin = request.headers.get("origin");
  if (origin && origin === publicOrigin) return undefined;
  return jsonError(
    403,
    "bad_origin",
    origin
      ? `Requests from ${origin} may not change this account; use the dashboard at ${publicOrigin}.`
      : "This request has no Origin header, so it cannot change the account; use the dashboard.",
  );
}

export function csrfProtection(ctx: Context) {
  return new Elysia({ name: "cuebot.csrf" }).onRequest(
    syncHook(({ request }) => crossOriginRefusal(request, ctx.publicUrl)),
  );
}
