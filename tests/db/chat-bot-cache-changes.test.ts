import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  addCustomCommand,
  editCustomCommand,
  incrementCommandCount,
  setCommandCount,
} from "../../db/custom-commands.ts";
import { addQuote, deleteQuote } from "../../db/quotes.ts";
import { addRegular, removeRegular } from "../../db/regulars.ts";
import { addTimer, editTimer, markTimerPosted } from "../../db/timers.ts";
import { type CacheWatch, watchCache } from "./cache-watch.ts";
import { engine, engineMissing, openStoreUnderTest, type StoreUnderTest } from "./store-under-test.ts";

const AT = Date.UTC(2026, 10, 26, 12, 0, 0, 0);

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
