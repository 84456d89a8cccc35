import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import {
  addCustomCommand,
  editCustomCommand,
  incrementCommandCount,
  setCommandCount,
} from "../../db/custom-commands.ts";
import { addQuote, deleteQuote } from "../../db/quotes.ts";
import { addRegular, removeRegular } from "../../db/regulars.ts";
import { addTimer, editTimer, markTimerPosted } from "../../db/timers.ts";
import { engine, engineMissing, openStoreUnderTest, type StoreUnderTest } from "./store-under-test.ts";

const AT = Date.UTC(2026, 10, 26, 12, 0, 0, 0);
const SENTINEL = "end-of-test-write";

/**
 * Whether a write tells the running servers to drop their caches (migration 0004): on SQLite it moves
 * the cache_changes counter, on PostgreSQL it notifies `cuebot_cache_changes`. On PostgreSQL a
 * sentinel sent after the write is delivered after whatever the write sent, so waiting for it is
 * enough.
 */
interface CacheWatch {
  flushes(write: () => Promise<unknown>): Promise<boolean>;
  close(): Promise<void>;
}

async function watchCache(location: string): Promise<CacheWatch> {
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

describe.skipIf(engineMissing)(`what a chat line reads tells the servers when it changes (${engine})`, () => {
  let db: StoreUnderTest;
  let watch: CacheWatch;
  beforeAll(async () => {
    db = await openStoreUnderTest();
    watch = await watchCache(db.location);
  });
  afterAll(async () => {
    await watch?.close();
    await db?.close();
  });

  test("a command's definition does; its count does not", async () => {
    const account = await db.account();
    expect(
      await watch.flushes(() => addCustomCommand(db.store, account, { name: "deaths", response: "x" }, AT)),
    ).toBe(true);
    expect(
      await watch.flushes(() => editCustomCommand(db.store, account, "deaths", { cooldownSeconds: 5 }, AT)),
    ).toBe(true);
    // The same value again changes nothing cached.
    expect(
      await watch.flushes(() => editCustomCommand(db.store, account, "deaths", { cooldownSeconds: 5 }, AT)),
    ).toBe(false);
    // The per-user cooldown is part of the definition chat caches.
    expect(
      await watch.flushes(() =>
        editCustomCommand(db.store, account, "deaths", { userCooldownSeconds: 60 }, AT),
      ),
    ).toBe(true);
    expect(await watch.flushes(() => incrementCommandCount(db.store, account, "deaths"))).toBe(false);
    expect(await watch.flushes(() => setCommandCount(db.store, account, "deaths", 40))).toBe(false);
  });

  test("regulars and timers do, except a timer's last post; quotes never", async () => {
    const account = await db.account();
    expect(
      await watch.flushes(() => addRegular(db.store, account, { twitchUserId: "1", login: "a" }, AT)),
    ).toBe(true);
    expect(
      await watch.flushes(() => addRegular(db.store, account, { twitchUserId: "1", login: "a" }, AT)),
    ).toBe(false);
    expect(await watch.flushes(() => removeRegular(db.store, account, { login: "a" }))).toBe(true);
    let id = 0;
    expect(
      await watch.flushes(async () => {
        id = (await addTimer(db.store, account, { name: "t", message: "m", intervalMinutes: 5 }, AT)).id;
      }),
    ).toBe(true);
    expect(await watch.flushes(() => editTimer(db.store, account, id, { enabled: false }, AT))).toBe(true);
    expect(await watch.flushes(() => markTimerPosted(db.store, account, id, AT))).toBe(false);
    expect(await watch.flushes(() => addQuote(db.store, account, { text: "q" }, AT))).toBe(false);
    expect(await watch.flushes(() => deleteQuote(db.store, account, 1))).toBe(false);
  });
});
