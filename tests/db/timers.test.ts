import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  addTimer,
  deleteTimer,
  editTimer,
  getTimer,
  listTimers,
  markTimerPosted,
  type Timer,
} from "../../db/timers.ts";
import { TROLL_TEXTS } from "../helpers/troll-texts.ts";
import { refusal } from "./refusal.ts";
import { engine, engineMissing, openStoreUnderTest, type StoreUnderTest } from "./store-under-test.ts";

const AT = Date.UTC(2026, 10, 26, 23, 0, 0, 321);

describe.skipIf(engineMissing)(`timers (${engine})`, () => {
  let db: StoreUnderTest;
  beforeAll(async () => {
    db = await openStoreUnderTest();
  });
  afterAll(() => db?.close());

  test("added with Nightbot's defaults (2 lines, enabled), listed in the order added, read by id", async () => {
    const account = await db.account();
    const other = await db.account();
    const socials = await addTimer(
      db.store,
      account,
      { name: " Socials ", message: "Follow me on the socials!", intervalMinutes: 15 },
      AT,
    );
    const expected: Timer = {
      id: socials.id,
      name: "Socials",
      message: "Follow me on the socials!",
      intervalMinutes: 15,
      minChatLines: 2,
      enabled: true,
      lastPostedAt: null,
      createdAt: AT,
      updatedAt: AT,
    };
    expect(socials).toEqual(expected);
    const quiet = await addTimer(
      db.store,
      account,
      { name: "quiet", message: "hydrate", intervalMinutes: 60, minChatLines: 0, enabled: false },
      AT + 1,
    );
    expect(quiet).toMatchObject({ intervalMinutes: 60, minChatLines: 0, enabled: false });
    expect(await listTimers(db.store, account)).toEqual([expected, quiet]);
    expect(await getTimer(db.store, account, socials.id)).toEqual(expected);
    expect(await getTimer(db.store, other, socials.id)).toBeUndefined();
    for (const id of [0, -1, 1.5, Number.NaN, 2 ** 31])
      expect(await getTimer(db.store, account, id)).toBeUndefined();
    // Another account may use the same name.
    await addTimer(db.store, other, { name: "Socials", message: "mine", intervalMinutes: 5 }, AT);
  });

  test("a name taken in the account is refused, by add and by rename", async () => {
    const account = await db.account();
    await addTimer(db.store, account, { name: "discord", message: "join", intervalMinutes: 10 }, AT);
    const second = await addTimer(
      db.store,
      account,
      { name: "prime", message: "sub", intervalMinutes: 10 },
      AT,
    );
    const add = await refusal(() =>
      addTimer(db.store, account, { name: "discord", message: "again", intervalMinutes: 10 }, AT),
    );
    expect([add.code, add.field, add.message]).toEqual([
      "duplicate",
      "name",
      'A timer named "discord" already exists.',
    ]);
    const rename = await refusal(() => editTimer(db.store, account, second.id, { name: "discord" }, AT));
    expect([rename.code, rename.field]).toEqual(["duplicate", "name"]);
    expect((await listTimers(db.store, account)).map((t) => t.name)).toEqual(["discord", "prime"]);
  });

  test("inputs are checked and each refusal names its field; nothing is stored", async () => {
    const account = await db.account();
    const base = { name: "t", message: "m", intervalMinutes: 10 };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: "" }, "name", "A timer's name cannot be empty."],
      [{ name: "n".repeat(51) }, "name", "A timer's name is 50 characters at most (this one has 51)."],
      [
        { message: "a\nb" },
        "message",
        "A timer's message must be one line of plain text (no line breaks or control characters).",
      ],
      [
        { message: "m".repeat(501) },
        "message",
        "A timer's message is 500 characters at most (this one has 501).",
      ],
      [
        { intervalMinutes: 4 },
        "intervalMinutes",
        "A timer's interval in minutes is a whole number from 5 to 60.",
      ],
      [
        { intervalMinutes: 61 },
        "intervalMinutes",
        "A timer's interval in minutes is a whole number from 5 to 60.",
      ],
      [
        { intervalMinutes: 7.5 },
        "intervalMinutes",
        "A timer's interval in minutes is a whole number from 5 to 60.",
      ],
      [{ minChatLines: -1 }, "minChatLines", "The chat lines between posts is a whole number from 0 to 100."],
      [
        { minChatLines: 101 },
        "minChatLines",
        "The chat lines between posts is a whole number from 0 to 100.",
      ],
      [{ enabled: "yes" }, "enabled", "Enabled is true or false."],
    ];
    for (const [change, field, message] of cases) {
      const error = await refusal(() => addTimer(db.store, account, { ...base, ...change } as never, AT));
      expect([error.code, error.field, error.message]).toEqual(["invalid_input", field, message]);
    }
    expect(await listTimers(db.store, account)).toEqual([]);
    for (const [name, intervalMinutes] of [
      ["five", 5],
      ["sixty", 60],
    ] as const) {
      await addTimer(db.store, account, { name, message: TROLL_TEXTS.join(" "), intervalMinutes }, AT);
    }
    expect((await listTimers(db.store, account)).map((t) => t.intervalMinutes)).toEqual([5, 60]);
  });

  test("an edit changes what it names and keeps the rest; an invalid edit changes nothing", async () => {
    const account = await db.account();
    const timer = await addTimer(db.store, account, { name: "t", message: "old", intervalMinutes: 10 }, AT);
    expect(await editTimer(db.store, account, timer.id, { message: "new", enabled: false }, AT + 5)).toEqual({
      ...timer,
      message: "new",
      enabled: false,
      updatedAt: AT + 5,
    });
    expect(await editTimer(db.store, account, timer.id, {}, AT + 6)).toMatchObject({ updatedAt: AT + 5 });
    const error = await refusal(() =>
      editTimer(db.store, account, timer.id, { message: "newer", intervalMinutes: 90 }, AT + 7),
    );
    expect(error.field).toBe("intervalMinutes");
    expect(await getTimer(db.store, account, timer.id)).toMatchObject({
      message: "new",
      intervalMinutes: 10,
    });
    expect(await editTimer(db.store, account, 999_999, { message: "x" }, AT)).toBeUndefined();
    expect(await editTimer(db.store, await db.account(), timer.id, { message: "x" }, AT)).toBeUndefined();
  });

  test("the last post is recorded apart from edits; delete is true once", async () => {
    const account = await db.account();
    const timer = await addTimer(db.store, account, { name: "t", message: "m", intervalMinutes: 10 }, AT);
    expect(await markTimerPosted(db.store, account, timer.id, AT + 60_000)).toBe(true);
    expect(await getTimer(db.store, account, timer.id)).toMatchObject({
      lastPostedAt: AT + 60_000,
      updatedAt: AT,
    });
    expect(await markTimerPosted(db.store, await db.account(), timer.id, AT)).toBe(false);
    expect(await deleteTimer(db.store, account, timer.id)).toBe(true);
    expect(await deleteTimer(db.store, account, timer.id)).toBe(false);
    expect(await markTimerPosted(db.store, account, timer.id, AT)).toBe(false);
    expect(await deleteTimer(db.store, account, -3)).toBe(false);
    expect(await listTimers(db.store, account)).toEqual([]);
  });

  test("at most 50 per account: the 51st is refused until one is deleted", async () => {
    const account = await db.account();
    const ids: number[] = [];
    for (let i = 0; i < 50; i++) {
      ids.push(
        (await addTimer(db.store, account, { name: `t${i}`, message: "m", intervalMinutes: 5 }, AT)).id,
      );
    }
    const error = await refusal(() =>
      addTimer(db.store, account, { name: "late", message: "m", intervalMinutes: 5 }, AT),
    );
    expect([error.code, error.message]).toEqual([
      "limit_reached",
      "A channel has at most 50 timers; delete one first.",
    ]);
    await deleteTimer(db.store, account, ids[0]!);
    await addTimer(db.store, account, { name: "late", message: "m", intervalMinutes: 5 }, AT);
    expect((await listTimers(db.store, account)).length).toBe(50);
  });
});
