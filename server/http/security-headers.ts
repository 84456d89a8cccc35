import { Elysia } from "elysia";
import { syncHook } from "./sync-hook.ts";

/** Headers every response carries; pages add their own Content-Security-Policy. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  // Keys and overlay tokens travel in URLs (chat bots and OBS cannot send headers): never leak them.
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
};

/**
 * Puts the security headers on every response Elysia builds. Replies built once (finalResponse) start
 * from them already (replyHeaders).
 */
export function securityHeaders() {
  return new Elysia({ name: "cuebot.security-headers" }).onRequest(
    syncHook(({ set }) => {
      Object.assign(set.headers, SECURITY_HEADERS);
    }),
  );
}
