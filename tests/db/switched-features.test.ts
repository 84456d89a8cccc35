/**
 * One storage shape for a feature switched on per account with a state (db/switched-features.ts):
 * native chat's and alerts' rows behave the same, and never touch each other. Runs on the engine
 * CUEBOT_TEST_DATABASE names.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type SwitchTable, switchedFeature } from "../../db/switched-features.ts";
import { engine, engineMissing, openStoreUnderTest, type StoreUnderTest } from "./store-under-test.ts";

const AT = Date.UTC(2026, 11, 6, 13, 0, 0, 0);

describe.skipIf(engineMissing)(`a feature's switch and state (${engine})`, () => {
  let db: StoreUnderTest;
  beforeAll(async () => {
    db = await openStoreUnderTest();
  });
  afterAll(() => db?.close());

  for (const name of ["chatSettings", "alertChannels"] as SwitchTable[]) {
    test(`${name}: no row until used; the switch and the state are written apart; listed while on`, async () => {
      const feature = switchedFeature(name);
      const account = await db.account();
      expect(await feature.read(db.store, account)).toBeNull();
      await feature.writeState(db.store, account, "connecting", null, AT);
      expect(await feature.read(db.store, account)).toEqual({
        enabled: false,
        state: "connecting",
        stateSince: AT,
        reason: null,
        updatedAt: AT,
      });
      await feature.setEnabled(db.store, account, true, AT + 1);
      await feature.writeState(db.store, account, "needs_consent", "Allow cuebot again.", AT + 2);
      expect(await feature.read(db.store, account)).toMatchObject({
        enabled: true,
        state: "needs_consent",
        stateSince: AT + 2,
        reason: "Allow cuebot again.",
      });
      expect(await feature.listEnabled(db.store)).toContain(account);
      expect((await feature.list(db.store)).find((r) => r.accountId === account)?.enabled).toBe(true);
      await feature.setEnabled(db.store, account, false, AT + 3);
      expect(await feature.listEnabled(db.store)).not.toContain(account);
      expect((await feature.read(db.store, account))?.state).toBe("needs_consent");
    });
  }

  test("chat's switch and alerts' are separate rows of the same account", async () => {
    const chat = switchedFeature("chatSettings");
    const alerts = switchedFeature("alertChannels");
    const account = await db.account();
    await chat.setEnabled(db.store, account, true, AT);
    expect(await alerts.read(db.store, account)).toBeNull();
    await alerts.writeState(db.store, account, "error", "Twitch is away.", AT);
    expect(await chat.read(db.store, account)).toMatchObject({ enabled: true, state: "off" });
  });
});
