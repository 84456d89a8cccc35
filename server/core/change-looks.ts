import { NOTICE_TIMEOUT_MS } from "./change-notices.ts";

/**
 * An admin command waits this long for a server's answer to its notice (core/change-notices.ts)
 * before it exits anyway; a server that announces its changes looks when its last look is older than
 * half of it, so even a server that was stalled past the command's wait looks first.
 */
export const LOOK_AFTER_MS = NOTICE_TIMEOUT_MS / 2;

/**
 * How a request or a chat line asks "did another process commit since?" before reading the caches.
 * Where changes are not announced (instances sharing a SQLite file through Redis), on every call: a
 * held `PRAGMA data_version` (~1.4 µs). A server alone on its file (`announced`) is told by the admin
 * commands themselves before they exit (start.ts looks at once), so it looks only when its last look
 * is LOOK_AFTER_MS old: after a stall, before anything reads the caches.
 */
export function changeLooks(changes: { check(): unknown }, announced: boolean): () => void {
  if (!announced) return () => void changes.check();
  let lookedAt = Number.NEGATIVE_INFINITY;
  return () => {
    const now = performance.now();
    if (now - lookedAt < LOOK_AFTER_MS) return;
    lookedAt = now;
    changes.check();
  };
}
