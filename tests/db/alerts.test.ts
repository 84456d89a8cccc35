import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { addAlertAsset } from "../../db/alert-assets.ts";
import { type AlertFields, DEFAULT_TEMPLATES, defaultAlertSettings } from "../../db/alert-rules.ts";
import {
  ALERT_REPLAY_KEY_PREFIX,
  alertHistory,
  getAlertEvent,
  listAlertEnabledAccounts,
  readAlertChannel,
  readAlertSettings,
  recentAlertEvents,
  recordAlertEvent,
  setAlertsEnabled,
  writeAlertSettings,
  writeAlertState,
} from "../../db/alerts.ts";
import type { AlertType } from "../../db/schema-enums.ts";
import { REPLAY_KEY_PREFIX } from "../../server/alerts/present.ts";
import { SAMPLES } from "./asset-samples.ts";
import { startOtherProcess } from "./other-process.ts";
import { alertRefusal } from "./refusal.ts";
import { engine, engineMissing, openStoreUnderTest, type StoreUnderTest } from "./store-under-test.ts";

const AT = Date.UTC(2026, 10, 26, 12, 0, 0, 0);

const cheer = (user: string, amount: number, message: string | null = null): AlertFields => ({
  user,
  amount,
  months: null,
  tier: null,
  reward: null,
  message,
});

describe.skipIf(engineMissing)(`alerts in the store (${engine})`, () => {
  let db: StoreUnderTest;
  beforeAll(async () => {
    db = await openStoreUnderTest();
  });
  afterAll(() => db?.close());

  const record = (
    accountId: number,
    eventKey: string,
    fields: AlertFields,
    at = AT,
    type: AlertType = "cheer",
  ) => recordAlertEvent(db.store, { accountId, type, eventKey, fields, test: false, at });

  describe("the switch and the state", () => {
    test("an account that never turned alerts on has no row; on, off and the state are kept apart", async () => {
      const account = await db.account();
      expect(await readAlertChannel(db.store, account)).toBeNull();
      await writeAlertState(db.store, account, "connecting", null, AT);
      expect(await readAlertChannel(db.store, account)).toEqual({
        enabled: false,
        state: "connecting",
        stateSince: AT,
        reason: null,
        updatedAt: AT,
      });
      await setAlertsEnabled(db.store, account, true, AT + 1);
      await writeAlertState(db.store, account, "needs_consent", "Alerts need bits:read.", AT + 2);
      expect(await readAlertChannel(db.store, account)).toEqual({
        enabled: true,
        state: "needs_consent",
        stateSince: AT + 2,
        reason: "Alerts need bits:read.",
        updatedAt: AT + 2,
      });
      expect(await listAlertEnabledAccounts(db.store)).toContain(account);
      await setAlertsEnabled(db.store, account, false, AT + 3);
      expect(await listAlertEnabledAccounts(db.store)).not.toContain(account);
      expect((await readAlertChannel(db.store, account))?.state).toBe("needs_consent");
    });
  });

  describe("settings per type", () => {
    test("a type never saved has the defaults, in the dashboard's order", async () => {
      const account = await db.account();
      const settings = await readAlertSettings(db.store, account);
      expect(Object.keys(settings)).toEqual([
        "follow",
        "subscribe",
        "resub",
        "gift",
        "cheer",
        "raid",
        "redemption",
      ]);
      expect(settings.raid).toEqual(defaultAlertSettings("raid"));
      expect(settings.resub.template).toBe(DEFAULT_TEMPLATES.resub);
    });

    test("a change keeps the rest; other types and accounts keep theirs", async () => {
      const account = await db.account();
      const other = await db.account();
      const saved = await writeAlertSettings(db.store, account, "cheer", { minAmount: 100, volume: 0 }, AT);
      expect(saved).toEqual({ ...defaultAlertSettings("cheer"), minAmount: 100, volume: 0 });
      const again = await writeAlertSettings(
        db.store,
        account,
        "cheer",
        { template: "  {user} ✨ {amount} bits: {message}  ", chatMessage: "Thanks @{user} for {amount}!" },
        AT,
      );
      expect(again).toEqual({
        ...defaultAlertSettings("cheer"),
        minAmount: 100,
        volume: 0,
        template: "{user} ✨ {amount} bits: {message}",
        chatMessage: "Thanks @{user} for {amount}!",
      });
      const all = await readAlertSettings(db.store, account);
      expect(all.cheer).toEqual(again);
      expect(all.raid).toEqual(defaultAlertSettings("raid"));
      expect((await readAlertSettings(db.store, other)).cheer).toEqual(defaultAlertSettings("cheer"));
      // A blank chat line turns it off.
      expect(
        (await writeAlertSettings(db.store, account, "cheer", { chatMessage: " " }, AT)).chatMessage,
      ).toBeNull();
      expect((await writeAlertSettings(db.store, account, "cheer", { enabled: false }, AT)).enabled).toBe(
        false,
      );
    });

    test("every invalid value is refused naming its field, and nothing is stored", async () => {
      const account = await db.account();
      const refused = async (changes: Record<string, unknown>) =>
        alertRefusal(() => writeAlertSettings(db.store, account, "raid", changes, AT));
      const cases: [Record<string, unknown>, string, RegExp][] = [
        [{ template: "{user} sent {gold}" }, "template", /\{gold\} is not a placeholder/],
        [{ template: "{ user }" }, "template", /Braces hold a placeholder/],
        [{ template: "" }, "template", /needs some text/],
        [{ template: "a".repeat(201) }, "template", /200 characters/],
        [{ template: "line\nbreak" }, "template", /one line/],
        [{ template: "nul\u0000" }, "template", /one line/],
        [{ template: "bidi \u202e trick" }, "template", /one line/],
        [{ template: "lone \ud800 surrogate" }, "template", /one line/],
        [{ template: 42 }, "template", /text/],
        [{ chatMessage: "Thanks {user}: {message}" }, "chatMessage", /cannot use \{message\}/],
        [{ chatMessage: "x".repeat(201) }, "chatMessage", /200/],
        [{ minAmount: -1 }, "minAmount", /0 to 1000000/],
        [{ minAmount: 1_000_001 }, "minAmount", /whole number/],
        [{ minAmount: 1.5 }, "minAmount", /whole number/],
        [{ durationSeconds: 1 }, "durationSeconds", /2 to 30/],
        [{ durationSeconds: 31 }, "durationSeconds", /2 to 30/],
        [{ volume: 101 }, "volume", /0 to 100/],
        [{ volume: Number.NaN }, "volume", /0 to 100/],
        [{ enabled: "yes" }, "enabled", /true or false/],
        [{ imageId: 0 }, "imageId", /id/],
        [{ imageId: 999_999 }, "imageId", /no uploaded image/],
        [{ soundId: 2 ** 40 }, "soundId", /id/],
      ];
      for (const [changes, field, message] of cases) {
        const error = await refused(changes);
        expect({ field: error.field, code: error.code }).toEqual({ field, code: "invalid_input" });
        expect(error.message).toMatch(message);
      }
      const wrongType = await alertRefusal(() =>
        writeAlertSettings(db.store, account, "unfollow" as AlertType, { enabled: false }, AT),
      );
      expect(wrongType.field).toBe("type");
      expect((await readAlertSettings(db.store, account)).raid).toEqual(defaultAlertSettings("raid"));
    });

    test("an image or sound must be the account's own of that kind; 200 characters of emoji pass", async () => {
      const account = await db.account();
      const other = await db.account();
      const image = await addAlertAsset(db.store, account, SAMPLES.png, "image", AT);
      const sound = await addAlertAsset(db.store, account, SAMPLES.ogg, "sound", AT);
      const theirs = await addAlertAsset(db.store, other, SAMPLES.gif89, "image", AT);
      const saved = await writeAlertSettings(
        db.store,
        account,
        "follow",
        { imageId: image.id, soundId: sound.id, template: "🎉".repeat(200) },
        AT,
      );
      expect(saved).toMatchObject({ imageId: image.id, soundId: sound.id });
      expect(
        (await alertRefusal(() => writeAlertSettings(db.store, account, "follow", { imageId: sound.id }, AT)))
          .field,
      ).toBe("imageId");
      expect(
        (await alertRefusal(() => writeAlertSettings(db.store, account, "follow", { soundId: image.id }, AT)))
          .field,
      ).toBe("soundId");
      expect(
        (
          await alertRefusal(() =>
            writeAlertSettings(db.store, account, "follow", { imageId: theirs.id }, AT),
          )
        ).field,
      ).toBe("imageId");
      expect(
        (await writeAlertSettings(db.store, account, "follow", { imageId: null }, AT)).imageId,
      ).toBeNull();
    });
  });

  describe("the history", () => {
    test("an alert is stored once per event key; its fields come back as given, odd text included", async () => {
      const account = await db.account();
      const other = await db.account();
      const fields = cheer("Ünïcødé 🎲 ‘Zoë’", 500, "Hi \u0000there \ud83d and <b>bold</b>");
      const first = await record(account, "msg-1", fields);
      expect(first).toEqual({
        id: expect.any(Number),
        type: "cheer",
        eventKey: "msg-1",
        fields: { ...fields, message: "Hi there \ufffd and <b>bold</b>" },
        test: false,
        at: AT,
      });
      expect(await record(account, "msg-1", cheer("Again", 1))).toBeNull();
      // The same key is another account's own.
      expect(await record(other, "msg-1", fields)).not.toBeNull();
      expect(await getAlertEvent(db.store, account, first!.id)).toEqual(first);
      expect(await getAlertEvent(db.store, other, first!.id)).toBeNull();
      expect(await getAlertEvent(db.store, account, -1)).toBeNull();
      expect(await getAlertEvent(db.store, account, 2 ** 53)).toBeNull();
      const test = await recordAlertEvent(db.store, {
        accountId: account,
        type: "raid",
        eventKey: `test:${crypto.randomUUID()}`,
        fields: { ...cheer("Raider", 42), user: "Raider" },
        test: true,
        at: AT + 1,
      });
      expect(test?.test).toBe(true);
    });

    test("a key or fields nobody could have sent are refused", async () => {
      const account = await db.account();
      expect((await alertRefusal(() => record(account, "", cheer("a", 1)))).field).toBe("eventKey");
      expect((await alertRefusal(() => record(account, "k".repeat(201), cheer("a", 1)))).field).toBe(
        "eventKey",
      );
      expect((await alertRefusal(() => record(account, "k", cheer("a".repeat(20_000), 1)))).field).toBe(
        "fields",
      );
      expect(
        (await alertRefusal(() => record(account, "k", cheer("a", 1), AT, "host" as AlertType))).field,
      ).toBe("type");
      expect(await alertHistory(db.store, account, 10)).toEqual([]);
    });

    test("newest first for the dashboard, oldest first after an id for an overlay's catch-up", async () => {
      const account = await db.account();
      const ids: number[] = [];
      for (let i = 0; i < 5; i++)
        ids.push((await record(account, `k${i}`, cheer(`u${i}`, i), AT + i * 20_000))!.id);
      const history = await alertHistory(db.store, account, 3);
      expect(history.map((e) => e.fields.user)).toEqual(["u4", "u3", "u2"]);
      expect((await alertHistory(db.store, account, 0)).length).toBe(1);
      expect((await alertHistory(db.store, account, Number.NaN)).length).toBe(5);
      // After the second alert, and no older than 60 s before the last one.
      const recent = await recentAlertEvents(db.store, account, ids[1]!, AT + 4 * 20_000 - 60_000);
      expect(recent.map((e) => e.fields.user)).toEqual(["u2", "u3", "u4"]);
      expect(await recentAlertEvents(db.store, account, ids[4]!, 0)).toEqual([]);
      expect((await recentAlertEvents(db.store, account, 2 ** 60, 0)).length).toBe(0);
      expect((await recentAlertEvents(db.store, account, -5, Number.NaN)).length).toBe(5);
      expect(await recentAlertEvents(db.store, await db.account(), 0, 0)).toEqual([]);
    });

    test("only the newest 200 alerts of an account are kept; other accounts keep theirs", async () => {
      const account = await db.account();
      const other = await db.account();
      await record(other, "theirs", cheer("them", 1));
      for (let i = 0; i < 205; i++) await record(account, `bulk-${i}`, cheer(`u${i}`, i));
      const history = await alertHistory(db.store, account, 1000);
      expect(history.length).toBe(200);
      expect(history.at(0)?.fields.user).toBe("u204");
      expect(history.at(-1)?.fields.user).toBe("u5");
      expect((await alertHistory(db.store, other, 10)).length).toBe(1);
      // A pruned key counts as unseen again: the dedupe covers the last 200, far more than a redelivery needs.
      expect(await record(account, "bulk-0", cheer("late", 1))).not.toBeNull();
    });

    test("tests and replays never push real alerts out: 200 real and 50 tests or replays are kept apart", async () => {
      const account = await db.account();
      const staged = (key: string, test: boolean) =>
        recordAlertEvent(db.store, {
          accountId: account,
          type: "cheer",
          eventKey: key,
          fields: cheer(key, 1),
          test,
          at: AT,
        });
      for (let i = 0; i < 200; i++) await record(account, `real-${i}`, cheer(`real-${i}`, i));
      for (let i = 0; i < 40; i++) await staged(`test:${i}`, true);
      // A replay of a real alert is not a test, but it is no new event either.
      for (let i = 0; i < 20; i++) await staged(`replay:${i}`, false);
      const history = await alertHistory(db.store, account, 1000);
      const users = (rows: typeof history) => rows.map((e) => e.fields.user);
      const real = history.filter((e) => e.fields.user.startsWith("real-"));
      expect(real.length).toBe(200);
      expect(users(real).at(-1)).toBe("real-0");
      const others = history.filter((e) => !e.fields.user.startsWith("real-"));
      expect(others.length).toBe(50);
      expect(users(others).at(-1)).toBe("test:10");
      // A new real alert pushes out the oldest real one only.
      await record(account, "real-200", cheer("real-200", 1));
      const after = await alertHistory(db.store, account, 1000);
      expect(after.length).toBe(250);
      expect(users(after)).not.toContain("real-0");
      expect(users(after)).toContain("real-1");
      expect(users(after)).toContain("test:10");
      // The panel's replays carry the prefix the store tells apart by.
      expect(REPLAY_KEY_PREFIX).toBe(ALERT_REPLAY_KEY_PREFIX);
      // A real key that only looks like a replay's in another case is real.
      await record(account, "REPLAY:x", cheer("REPLAY:x", 1));
      expect(users(await alertHistory(db.store, account, 1000))).toContain("test:10");
    });

    // On SQLite two connections of one process cannot wait for each other (busy_timeout blocks the thread
    // that would end the other's transaction): there, the other process below does it.
    test.skipIf(engine !== "postgres")(
      "two pools recording the same events at once store each exactly once",
      async () => {
        const account = await db.account();
        const second = db.connect();
        const times = 30;
        const side = (store: typeof db.store) =>
          Promise.all(
            Array.from({ length: times }, (_, i) =>
              recordAlertEvent(store, {
                accountId: account,
                type: "cheer",
                eventKey: `same-${i}`,
                fields: cheer("x", i),
                test: false,
                at: AT,
              }),
            ),
          );
        const [a, b] = await Promise.all([side(db.store), side(second)]);
        const stored = [...a, ...b].filter((row) => row !== null);
        expect(stored.length).toBe(times);
        expect((await alertHistory(db.store, account, 200)).length).toBe(times);
      },
    );

    test.skipIf(engine !== "sqlite")(
      "two processes recording the same events at once store each exactly once",
      async () => {
        const account = await db.account();
        const times = 40;
        const other = await startOtherProcess(db.location, "alert", account, times, "shared");
        await other.go();
        const mine: number[] = [];
        for (let i = 0; i < times; i++) {
          const row = await recordAlertEvent(db.store, {
            accountId: account,
            type: "cheer",
            eventKey: `shared-${i}`,
            fields: cheer("me", i),
            test: false,
            at: Date.now(),
          });
          mine.push(row?.id ?? -1);
        }
        const theirs = await other.results;
        const ids = [...mine, ...theirs].filter((id) => id !== -1);
        expect(ids.length).toBe(times);
        expect(new Set(ids).size).toBe(times);
        expect((await alertHistory(db.store, account, 200)).length).toBe(times);
      },
    );
  });
});
