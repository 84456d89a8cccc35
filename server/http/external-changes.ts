import { Elysia } from "elysia";
import type { Context } from "../context.ts";
import { syncHook } from "./sync-hook.ts";

/**
 * First thing on every request: did another process (the CLI) commit since the last look? If so the
 * in-memory caches are dropped before anything reads them, so `key rotate` and `role set` hold from
 * the very next request (CONTRACT §3). One `PRAGMA data_version` through a held statement (~1 µs),
 * on every request: Bun reads sockets between handlers, so a request can arrive after a commit within
 * the same turn of the event loop (say, while another request waits out SQLite's busy timeout), and
 * skipping the look for it would serve it from the old caches.
 */
export function externalChanges(ctx: Context) {
  return new Elysia({ name: "cuebot.external-changes" }).onRequest(
    syncHook(() => {
      ctx.externalChanges.check();
    }),
  );
}
