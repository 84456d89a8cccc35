import { Elysia } from "elysia";
import { NOTICE_TIMEOUT_MS } from "../core/change-notices.ts";
import type { Context } from "../runtime.ts";
import { syncHook } from "./sync-hook.ts";

/**
 * A command waits this long for a server's answer to its notice (core/change-notices.ts) before it
 * exits anyway; a server that announces its changes looks on a request when its last look is older
 * than half of it, so even a server that was stalled past the command's wait looks first.
 */
const LOOK_AFTER_MS = NOTICE_TIMEOUT_MS / 2;

/**
 * First thing on a request: did another process (the CLI, another instance) commit since the last
 * look? If so the in-memory caches are dropped before anything reads them, so `key rotate` and
 * `role set` hold from the very next request (CONTRACT §3). One `PRAGMA data_version` through a held
 * statement (~1.4 µs), on every request: Bun reads sockets between handlers, so a request can arrive
 * after a commit within the same turn of the event loop. A server alone on its SQLite file
 * (`changesAnnounced`) is told by the admin commands themselves before they exit, so it looks only
 * when its last look here is a second old: a request after a stall (the command gave up waiting for
 * the answer) looks before anything reads the caches.
 */
export function externalChanges(ctx: Context, changesAnnounced: boolean) {
  if (!changesAnnounced) {
    return new Elysia({ name: "cuebot.external-changes" }).onRequest(
      syncHook(() => {
        ctx.externalChanges.check();
      }),
    );
  }
  let lookedAt = 0;
  return new Elysia({ name: "cuebot.external-changes" }).onRequest(
    syncHook(() => {
      const now = performance.now();
      if (now - lookedAt < LOOK_AFTER_MS) return;
      lookedAt = now;
      ctx.externalChanges.check();
    }),
  );
}
