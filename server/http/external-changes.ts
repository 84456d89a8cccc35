import { Elysia } from "elysia";
import type { Context } from "../context.ts";
import { syncHook } from "./sync-hook.ts";

/**
 * First thing on every request: did another process (the CLI, another instance) commit since the
 * last look? If so the in-memory caches are dropped before anything reads them, so `key rotate` and
 * `role set` hold from the very next request (CONTRACT §3). One `PRAGMA data_version` through a held
 * statement (~1.4 µs), on every request: Bun reads sockets between handlers, so a request can arrive
 * after a commit within the same turn of the event loop. A server alone on its SQLite file skips it
 * (`changesAnnounced`): the admin commands tell it of their commits and wait for its answer before
 * they exit (core/change-notices.ts), and the idle timer (listen.ts) looks four times a second.
 */
export function externalChanges(ctx: Context, changesAnnounced: boolean) {
  const plugin = new Elysia({ name: "cuebot.external-changes" });
  if (changesAnnounced) return plugin;
  return plugin.onRequest(
    syncHook(() => {
      ctx.externalChanges.check();
    }),
  );
}
