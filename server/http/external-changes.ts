import { Elysia } from "elysia";
import type { Context } from "../context.ts";
import { syncHook } from "./sync-hook.ts";

/**
 * First thing on every request: did another process (the CLI) commit since the last request? If so
 * the in-memory caches are dropped before anything reads them, so `key rotate` and `role set` hold
 * from the very next request (CONTRACT §3). One `PRAGMA data_version` through a held statement.
 */
export function externalChanges(ctx: Context) {
  return new Elysia({ name: "cuebot.external-changes" }).onRequest(
    syncHook(() => {
      ctx.externalChanges.check();
    }),
  );
}
