import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { addAlertAsset, deleteAlertAsset } from "../../db/alert-assets.ts";
import { recordAlertEvent, setAlertsEnabled, writeAlertSettings, writeAlertState } from "../../db/alerts.ts";
import { SAMPLES } from "./asset-samples.ts";
import { type CacheWatch, watchCache } from "./cache-watch.ts";
import { engine, engineMissing, openStoreUnderTest, type StoreUnderTest } from "./store-under-test.ts";

const AT = Date.UTC(2026, 10, 26, 12, 0, 0, 0);

describe.skipIf(engineMissing)(`what alerts run on tells the servers when it changes (${engine})`, () => {
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

  test("the switch does; the reported state does not", async () => {
    const account = await db.account();
    expect(await watch.flushes(() => writeAlertState(db.store, account, "connecting", null, AT))).toBe(true);
    expect(await watch.flushes(() => setAlertsEnabled(db.store, account, true, AT))).toBe(true);
    expect(await watch.flushes(() => setAlertsEnabled(db.store, account, true, AT + 1))).toBe(false);
    expect(await watch.flushes(() => writeAlertState(db.store, account, "connected", null, AT))).toBe(false);
    expect(await watch.flushes(() => setAlertsEnabled(db.store, account, false, AT))).toBe(true);
  });

  test("a type's settings do when they change; the history never does", async () => {
    const account = await db.account();
    expect(
      await watch.flushes(() => writeAlertSettings(db.store, account, "raid", { minAmount: 5 }, AT)),
    ).toBe(true);
    expect(
      await watch.flushes(() => writeAlertSettings(db.store, account, "raid", { minAmount: 5 }, AT + 1)),
    ).toBe(false);
    expect(
      await watch.flushes(() =>
        writeAlertSettings(db.store, account, "raid", { chatMessage: "Thanks {user}!" }, AT),
      ),
    ).toBe(true);
    const fields = { user: "Eve", amount: 42, months: null, tier: null, reward: null, message: null };
    expect(
      await watch.flushes(() =>
        recordAlertEvent(db.store, {
          accountId: account,
          type: "raid",
          eventKey: "m1",
          fields,
          test: false,
          at: AT,
        }),
      ),
    ).toBe(false);
  });

  test("deleting an image a type uses does, through the settings it clears", async () => {
    let account = 0;
    // A new account is news to the caches: heard here, so it is not heard as the upload's.
    await watch.flushes(async () => {
      account = await db.account();
    });
    let id = 0;
    expect(
      await watch.flushes(async () => {
        id = (await addAlertAsset(db.store, account, SAMPLES.png, "image", AT)).id;
      }),
    ).toBe(false);
    await writeAlertSettings(db.store, account, "follow", { imageId: id }, AT);
    expect(await watch.flushes(() => deleteAlertAsset(db.store, account, id))).toBe(true);
  });
});
