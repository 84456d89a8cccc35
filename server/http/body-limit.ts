import { Elysia } from "elysia";
import { jsonError } from "./errors.ts";
import { syncHook } from "./sync-hook.ts";

/**
 * Request bodies are parsed before authentication runs (Elysia's lifecycle), so their size is capped
 * first: nothing cuebot accepts is larger than an overlay state (16 KiB) plus room. A body announced
 * larger is refused before a byte of it is read; Bun's maxRequestBodySize (listen.ts) stops bodies
 * that arrive without a length.
 */
export const MAX_BODY_BYTES = 64 * 1024;

function tooLarge(request: Request): Response | undefined {
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length <= MAX_BODY_BYTES) return undefined;
  return jsonError(413, "payload_too_large", `Request bodies may be at most ${MAX_BODY_BYTES / 1024} KiB.`);
}

export function bodyLimit() {
  return new Elysia({ name: "cuebot.body-limit" }).onRequest(syncHook(({ request }) => tooLarge(request)));
}
