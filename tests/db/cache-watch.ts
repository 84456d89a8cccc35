import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { engine } from "./store-under-test.ts";

const SENTINEL = "end-of-test-write";

/**
 * Whether a write tells the running servers to drop their caches (migrations 0002–0005): on SQLite it moves
 * the cache_changes counter, on PostgreSQL it notifies `cuebot_cache_changes`. On PostgreSQL a
 * sentinel sent after the write is delivered after whatever the write sent, so waiting for it is
 * enough.
 */
export interface CacheWatch {
  flushes(write: () => Promise<unknown>): Promise<boolean>;
  close(): Promise<void>;
}

export async function watchCache(location: string): Promise<CacheWatch> {
  if (engine === "sqlite") {
    const file = new Database(location, { readonly: true });
    const counter = () => (file.query("SELECT n FROM cache_changes WHERE id = 1").get() as { n: number }).n;
    return {
      async flushes(write) {
        const before = counter();
        await write();
        return counter() !== before;
      },
      async close() {
        file.close();
      },
    };
  }
  const sql = new SQL({ url: location, max: 2 });
  const heard: string[] = [];
  let sentinelHeard = () => {};
  const subscription = await sql.listen("cuebot_cache_changes", (payload) => {
    if (payload === SENTINEL) sentinelHeard();
    else heard.push(payload);
  });
  return {
    async flushes(write) {
      heard.length = 0;
      await write();
      const sentinel = new Promise<void>((resolve) => {
        sentinelHeard = resolve;
      });
      await sql`SELECT pg_notify('cuebot_cache_changes', ${SENTINEL})`;
      await sentinel;
      return heard.length > 0;
    },
    async close() {
      await subscription.unlisten();
      await sql.close();
    },
  };
}
