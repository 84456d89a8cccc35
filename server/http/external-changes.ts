import { Elysia } from "elysia";
import { changeLooks } from "../core/change-looks.ts";
import type { Context } from "../runtime.ts";
import { syncHook } from "./sync-hook.ts";

/**
 * First thing on a request: did another process (the CLI, another instance) commit since the last
 * look? If so the in-memory caches are dropped before anything reads them, so `key rotate` and
 * `role set` hold from the very next request (CONTRACT §3). Bun reads sockets between handlers, so a
 * request can arrive after a commit within the same turn of the event loop; how often it asks is
 * core/change-looks.ts's policy, which native chat follows too.
 */
export function externalChanges(ctx: Context, changesAnnounced: boolean) {
  const look = changeLooks(ctx.externalChanges, changesAnnounced);
  return new Elysia({ name: "cuebot.external-changes" }).onRequest(syncHook(look));
}
