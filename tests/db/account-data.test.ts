import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readAlertsExport, readChatExport } from "../../db/account-data.ts";
import { deleteAccountRow } from "../../db/accounts.ts";
import { addAlertAsset } from "../../db/alert-assets.ts";
import { defaultAlertSettings } from "../../db/alert-rules.ts";
import { recordAlertEvent, setAlertsEnabled, writeAlertSettings } from "../../db/alerts.ts";
import { addCustomCommand, incrementCommandCount } from "../../db/custom-commands.ts";
import { addQuote } from "../../db/quotes.ts";
import { addRegular } from "../../db/regulars.ts";
import { addTimer, markTimerPosted } from "../../db/timers.ts";
import { SAMPLES } from "./asset-samples.ts";
import { engine, engineMissing, openStoreUnderTest, type StoreUnderTest } from "./store-under-test.ts";

const AT = Date.UTC(2026, 10, 26, 12, 0, 0, 0);
const ISO_AT = "2026-11-26T12:00:00.000Z";

describe.skipIf(engineMissing)(
  `an account's chat-bot data in its export and its deletion (${engine})`,
  () => {
    let db: StoreUnderTest;
    beforeAll(async () => {
      db = await openStoreUnderTest();
    });
    afterAll(() => db?.close());

    /** An account with one of everything. */
    async function seeded(): Promise<number> {
      const account = await db.account();
      await addCustomCommand(
        db.store,
        account,
        { name: "deaths", response: "$(count)", userLevel: "moderator", userCooldownSeconds: 60 },
        AT,
      );
      await incrementCommandCount(db.store, account, "deaths");
      await addRegular(db.store, account, { twitchUserId: "77", login: "Alice" }, AT);
      await addQuote(db.store, account, { text: "GG", game: "Chess" }, AT);
      const timer = await addTimer(
        db.store,
        account,
        { name: "socials", message: "follow", intervalMinutes: 15 },
        AT,
      );
      await markTimerPosted(db.store, account, timer.id, AT);
      return account;
    }

    test("the export's chat section holds the commands with their counts, regulars, quotes and timers", async () => {
      const account = await seeded();
      const other = await seeded();
      const chat = await readChatExport(db.store, account);
      expect(chat).toMatchObject({ enabled: false, state: "off", botAccount: null });
      expect(chat.customCommands).toEqual([
        {
          name: "deaths",
          response: "$(count)",
          userLevel: "moderator",
          cooldownSeconds: 0,
          userCooldownSeconds: 60,
          aliasTarget: null,
          count: 1,
          createdAt: ISO_AT,
          updatedAt: ISO_AT,
        },
      ]);
      expect(chat.regulars).toEqual([{ id: "77", login: "alice", createdAt: ISO_AT }]);
      expect(chat.quotes).toEqual([
        { number: 1, text: "GG", game: "Chess", createdAt: ISO_AT, updatedAt: ISO_AT },
      ]);
      expect(chat.timers).toEqual([
        {
          id: expect.any(Number),
          name: "socials",
          message: "follow",
          intervalMinutes: 15,
          minChatLines: 2,
          enabled: true,
          lastPostedAt: ISO_AT,
          createdAt: ISO_AT,
          updatedAt: ISO_AT,
        },
      ]);
      // The other account's rows are its own.
      expect((await readChatExport(db.store, other)).timers[0]!.id).not.toBe(chat.timers[0]!.id);
      const empty = await readChatExport(db.store, await db.account());
      expect([empty.customCommands, empty.regulars, empty.quotes, empty.timers]).toEqual([[], [], [], []]);
    });

    test("deleting the account deletes every row of it, the quote counter too; other accounts keep theirs", async () => {
      const account = await seeded();
      const other = await seeded();
      await deleteAccountRow(db.store, account);
      const rowsOf = async (id: number) => [
        (await db.store.all((d, t) => d.select().from(t.customCommands))).filter((r) => r.accountId === id)
          .length,
        (await db.store.all((d, t) => d.select().from(t.regulars))).filter((r) => r.accountId === id).length,
        (await db.store.all((d, t) => d.select().from(t.quotes))).filter((r) => r.accountId === id).length,
        (await db.store.all((d, t) => d.select().from(t.quoteCounters))).filter((r) => r.accountId === id)
          .length,
        (await db.store.all((d, t) => d.select().from(t.timers))).filter((r) => r.accountId === id).length,
      ];
      expect(await rowsOf(account)).toEqual([0, 0, 0, 0, 0]);
      expect(await rowsOf(other)).toEqual([1, 1, 1, 1, 1]);
    });
  },
);

describe.skipIf(engineMissing)(`an account's alerts in its export and its deletion (${engine})`, () => {
  let db: StoreUnderTest;
  beforeAll(async () => {
    db = await openStoreUnderTest();
  });
  afterAll(() => db?.close());

  const fields = { user: "Dave", amount: 500, months: null, tier: null, reward: null, message: "gg" };

  /** An account with alerts on, a saved type, an image, and two alerts in its history. */
  async function seeded(): Promise<{ account: number; imageId: number }> {
    const account = await db.account();
    await setAlertsEnabled(db.store, account, true, AT);
    const image = await addAlertAsset(db.store, account, SAMPLES.png, "image", AT);
    await writeAlertSettings(db.store, account, "cheer", { minAmount: 100, imageId: image.id }, AT);
    await recordAlertEvent(db.store, {
      accountId: account,
      type: "cheer",
      eventKey: "m1",
      fields,
      test: false,
      at: AT,
    });
    await recordAlertEvent(db.store, {
      accountId: account,
      type: "follow",
      eventKey: "test:1",
      fields: { ...fields, user: "Anna", amount: null, message: null },
      test: true,
      at: AT + 1000,
    });
    return { account, imageId: image.id };
  }

  test("the export holds the switch, every type's settings, the history oldest first and the uploads without bytes", async () => {
    const { account, imageId } = await seeded();
    const alerts = await readAlertsExport(db.store, account);
    expect(alerts).toMatchObject({ enabled: true, state: "off" });
    expect(alerts.settings.cheer).toEqual({ ...defaultAlertSettings("cheer"), minAmount: 100, imageId });
    expect(alerts.settings.raid).toEqual(defaultAlertSettings("raid"));
    expect(alerts.history).toEqual([
      { id: expect.any(Number), type: "cheer", eventKey: "m1", fields, test: false, at: ISO_AT },
      {
        id: expect.any(Number),
        type: "follow",
        eventKey: "test:1",
        fields: { ...fields, user: "Anna", amount: null, message: null },
        test: true,
        at: "2026-11-26T12:00:01.000Z",
      },
    ]);
    expect(alerts.assets).toEqual([
      { id: imageId, kind: "image", contentType: "image/png", size: SAMPLES.png.length, createdAt: ISO_AT },
    ]);
    expect(JSON.stringify(alerts)).not.toContain("bytes");
    const empty = await readAlertsExport(db.store, await db.account());
    expect(empty).toMatchObject({ enabled: false, state: "off", history: [], assets: [] });
  });

  test("deleting the account deletes its switch, settings, history and uploads; other accounts keep theirs", async () => {
    const { account } = await seeded();
    const { account: other } = await seeded();
    await deleteAccountRow(db.store, account);
    const rowsOf = async (id: number) => [
      (await db.store.all((d, t) => d.select().from(t.alertChannels))).filter((r) => r.accountId === id)
        .length,
      (await db.store.all((d, t) => d.select().from(t.alertSettings))).filter((r) => r.accountId === id)
        .length,
      (await db.store.all((d, t) => d.select().from(t.alertEvents))).filter((r) => r.accountId === id).length,
      (await db.store.all((d, t) => d.select().from(t.alertAssets))).filter((r) => r.accountId === id).length,
    ];
    expect(await rowsOf(account)).toEqual([0, 0, 0, 0]);
    expect(await rowsOf(other)).toEqual([1, 1, 2, 1]);
  });
});
