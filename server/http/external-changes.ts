import { Elysia } from "elysia";
import type { Context } from "../context.ts";
import { syncHook } from "./sync-hook.ts";

/**
 * First thing on every request: did another process (the CLI) commit since the last look? If so the
 * in-memory caches are dropped before anything reads them, so `key rotate` and `role set` hold from
 * the very next request (CONTRACT §3). The look (one `PRAGMA data_version`, ~1 µs) runs once per turn
 * of the event loop: the requests one turn handles were read together, before any of them was
 * answered, so a commit that a client waited for before sending its request is always seen.
 */
export function externalChanges(ctx: Context) {
  let lookedThisTurn = false;
  const nextTurn = () => {
    lookedThisTurn = false;
  };
  return new Elysia({ name: "cuebot.external-changes" }).onRequest(
    syncHook(() => {
      if (lookedThisTurn) return;
      lookedThisTurn = true;
      setImmediate(nextTurn);
      ctx.externalChanges.check();
    }),
  );
}
