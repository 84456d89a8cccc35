import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  addCustomCommand,
  type CustomCommand,
  countCustomCommands,
  deleteCustomCommand,
  editCustomCommand,
  getCustomCommand,
  incrementCommandCount,
  listCustomCommands,
  setCommandCount,
} from "../../db/custom-commands.ts";
import { TROLL_TEXTS } from "../helpers/troll-texts.ts";
import { startOtherProcess } from "./other-process.ts";
import { refusal } from "./refusal.ts";
import { engine, engineMissing, openStoreUnderTest, type StoreUnderTest } from "./store-under-test.ts";

const AT = Date.UTC(2026, 10, 26, 20, 0, 0, 123);

describe.skipIf(engineMissing)(`custom commands (${engine})`, () => {
  let db: StoreUnderTest;
  beforeAll(async () => {
    db = await openStoreUnderTest();
  });
  afterAll(() => db?.close());

  test("added as typed (!Discord), read back lower case with Nightbot's defaults", async () => {
    const account = await db.account();
    const added = await addCustomCommand(
      db.store,
      account,
      { name: "!Discord", response: " Join us: discord.gg/x " },
      AT,
    );
    const expected: CustomCommand = {
      name: "discord",
      response: "Join us: discord.gg/x",
      userLevel: "everyone",
      cooldownSeconds: 0,
      userCooldownSeconds: 0,
      aliasTarget: null,
      count: 0,
      createdAt: AT,
      updatedAt: AT,
    };
    expect(added).toEqual(expected);
    expect(await getCustomCommand(db.store, account, "discord")).toEqual(expected);
    expect(await getCustomCommand(db.store, account, "!DISCORD")).toEqual(expected);
    expect(await listCustomCommands(db.store, account)).toEqual([expected]);
  });

  test("every option is kept; the list is sorted by name and holds only the account's own", async () => {
    const account = await db.account();
    const other = await db.account();
    await addCustomCommand(db.store, other, { name: "lurk", response: "someone else's" }, AT);
    await addCustomCommand(
      db.store,
      account,
      { name: "lurk", response: "$(user) lurks", userLevel: "Subscriber ", cooldownSeconds: 300, count: 7 },
      AT,
    );
    await addCustomCommand(
      db.store,
      account,
      {
        name: "deathsplus",
        response: "+1",
        userLevel: "moderator",
        cooldownSeconds: 5,
        aliasTarget: "!Deaths",
      },
      AT + 1,
    );
    const list = await listCustomCommands(db.store, account);
    expect(list.map((c) => [c.name, c.userLevel, c.cooldownSeconds, c.aliasTarget, c.count])).toEqual([
      ["deathsplus", "moderator", 5, "deaths", 0],
      ["lurk", "subscriber", 300, null, 7],
    ]);
    expect(await countCustomCommands(db.store, account)).toBe(2);
    expect((await getCustomCommand(db.store, other, "lurk"))?.response).toBe("someone else's");
  });

  test("a name taken in the account is refused (any case), the first command unchanged", async () => {
    const account = await db.account();
    await addCustomCommand(db.store, account, { name: "socials", response: "first" }, AT);
    const error = await refusal(() =>
      addCustomCommand(db.store, account, { name: "!SOCIALS", response: "second" }, AT + 1),
    );
    expect([error.code, error.field, error.message]).toEqual([
      "duplicate",
      "name",
      "!socials already exists; edit it instead.",
    ]);
    expect((await getCustomCommand(db.store, account, "socials"))?.response).toBe("first");
    expect(await countCustomCommands(db.store, account)).toBe(1);
  });

  test("at most 500 per account: the 501st is refused until one is deleted", async () => {
    const account = await db.account();
    for (let i = 0; i < 500; i++) {
      await addCustomCommand(db.store, account, { name: `c${i}`, response: `r${i}` }, AT);
    }
    const error = await refusal(() =>
      addCustomCommand(db.store, account, { name: "onemore", response: "x" }, AT),
    );
    expect([error.code, error.message]).toEqual([
      "limit_reached",
      "A channel has at most 500 custom commands; delete one first.",
    ]);
    expect(await countCustomCommands(db.store, account)).toBe(500);
    expect(await getCustomCommand(db.store, account, "onemore")).toBeUndefined();
    // Another account is not affected by this one's limit.
    await addCustomCommand(db.store, await db.account(), { name: "onemore", response: "x" }, AT);

    expect(await deleteCustomCommand(db.store, account, "c0")).toBe(true);
    await addCustomCommand(db.store, account, { name: "onemore", response: "x" }, AT);
    expect(await countCustomCommands(db.store, account)).toBe(500);
  }, 60_000);

  test("names that cannot be a command are refused in words, and nothing is stored", async () => {
    const account = await db.account();
    const bad = ["", "!", "!!x", "dis cord", "x".repeat(33), "ü", "emote🎲", "a-b", ...TROLL_TEXTS];
    for (const name of bad) {
      const error = await refusal(() => addCustomCommand(db.store, account, { name, response: "hi" }, AT));
      expect([error.code, error.field]).toEqual(["invalid_input", "name"]);
      expect(error.message).toBe(
        "A command's name is ! and then 1 to 32 letters a–z, digits or underscores.",
      );
      // Looking such a name up finds nothing, and never throws.
      expect(await getCustomCommand(db.store, account, name)).toBeUndefined();
      expect(await deleteCustomCommand(db.store, account, name)).toBe(false);
      expect(await editCustomCommand(db.store, account, name, { response: "x" }, AT)).toBeUndefined();
      expect(await incrementCommandCount(db.store, account, name)).toBeUndefined();
      expect(await setCommandCount(db.store, account, name, 1)).toBeUndefined();
    }
    await addCustomCommand(db.store, account, { name: "x".repeat(32), response: "longest name" }, AT);
    expect((await listCustomCommands(db.store, account)).map((c) => c.name)).toEqual(["x".repeat(32)]);
  });

  test("responses: one line of 1 to 500 characters (code points), kept exactly as given", async () => {
    const account = await db.account();
    const cases: [string, string][] = [
      ["", "The response cannot be empty."],
      ["   ", "The response cannot be empty."],
      ["a".repeat(501), "The response is 500 characters at most (this one has 501)."],
      ["🎲".repeat(501), "The response is 500 characters at most (this one has 501)."],
      ["two\nlines", "The response must be one line of plain text (no line breaks or control characters)."],
      [
        "nul\u0000byte",
        "The response must be one line of plain text (no line breaks or control characters).",
      ],
      ["tab\there", "The response must be one line of plain text (no line breaks or control characters)."],
      [
        "broken \ud83c half",
        "The response must be one line of plain text (no line breaks or control characters).",
      ],
    ];
    for (const [response, message] of cases) {
      const error = await refusal(() => addCustomCommand(db.store, account, { name: "x", response }, AT));
      expect([error.code, error.field, error.message]).toEqual(["invalid_input", "response", message]);
    }
    expect(await countCustomCommands(db.store, account)).toBe(0);
    // 500 emoji are 1000 UTF-16 units but 500 characters, as Twitch counts them.
    const odd = `${"🎲".repeat(499)}\u202e`;
    for (const [name, response] of [
      ["emoji", "🎲".repeat(500)],
      ["odd", odd],
      ["spaced", "a\u2800b\u200bc"],
      ["troll", TROLL_TEXTS.join(" ")],
    ] as const) {
      await addCustomCommand(db.store, account, { name, response }, AT);
      expect((await getCustomCommand(db.store, account, name))?.response).toBe(response);
    }
  });

  test("user level, cooldown and alias are checked; each refusal names its field", async () => {
    const account = await db.account();
    const refused = async (input: Record<string, unknown>) =>
      refusal(() => addCustomCommand(db.store, account, { name: "x", response: "y", ...input }, AT));
    expect((await refused({ userLevel: "admin" })).message).toBe(
      "A user level is one of: everyone, subscriber, regular, twitch_vip, moderator, owner.",
    );
    expect((await refused({ userLevel: "" })).field).toBe("userLevel");
    for (const cooldownSeconds of [1, 4, 301, 2.5, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      const error = await refused({ cooldownSeconds });
      expect([error.field, error.message]).toEqual([
        "cooldownSeconds",
        "A cooldown is 0 (none) or 5 to 300 seconds.",
      ]);
    }
    expect((await refused({ aliasTarget: "!x" })).message).toBe("!x cannot be an alias of itself.");
    expect((await refused({ aliasTarget: "not a name" })).field).toBe("aliasTarget");
    expect((await refused({ count: 2 ** 31 })).message).toBe(
      "A count is a whole number from -2147483648 to 2147483647.",
    );
    expect(await countCustomCommands(db.store, account)).toBe(0);

    for (const [name, cooldownSeconds] of [
      ["zero", 0],
      ["five", 5],
      ["max", 300],
    ] as const) {
      await addCustomCommand(
        db.store,
        account,
        { name, response: "y", cooldownSeconds, aliasTarget: "" },
        AT,
      );
      expect(await getCustomCommand(db.store, account, name)).toMatchObject({
        cooldownSeconds,
        aliasTarget: null,
      });
    }
  });

  test("the per-user cooldown: 0 or 5–300, kept apart from the global one, refused naming its field", async () => {
    const account = await db.account();
    const added = await addCustomCommand(
      db.store,
      account,
      { name: "hug", response: "hugs", cooldownSeconds: 5, userCooldownSeconds: 120 },
      AT,
    );
    expect(added).toMatchObject({ cooldownSeconds: 5, userCooldownSeconds: 120 });
    expect(await getCustomCommand(db.store, account, "hug")).toMatchObject({ userCooldownSeconds: 120 });
    for (const userCooldownSeconds of [1, 4, 301, 2.5, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      const error = await refusal(() =>
        addCustomCommand(db.store, account, { name: "x", response: "y", userCooldownSeconds }, AT),
      );
      expect([error.field, error.message]).toEqual([
        "userCooldownSeconds",
        "A cooldown is 0 (none) or 5 to 300 seconds.",
      ]);
      const refusedEdit = await refusal(() =>
        editCustomCommand(db.store, account, "hug", { response: "changed", userCooldownSeconds }, AT + 1),
      );
      expect(refusedEdit.field).toBe("userCooldownSeconds");
    }
    expect(await getCustomCommand(db.store, account, "x")).toBeUndefined();
    expect(await getCustomCommand(db.store, account, "hug")).toMatchObject({
      response: "hugs",
      userCooldownSeconds: 120,
      updatedAt: AT,
    });
    // An edit naming only the global cooldown keeps the per-user one, and the reverse.
    expect(await editCustomCommand(db.store, account, "hug", { cooldownSeconds: 0 }, AT + 2)).toMatchObject({
      cooldownSeconds: 0,
      userCooldownSeconds: 120,
    });
    expect(
      await editCustomCommand(db.store, account, "hug", { userCooldownSeconds: 300 }, AT + 3),
    ).toMatchObject({ cooldownSeconds: 0, userCooldownSeconds: 300 });
    expect(
      await editCustomCommand(db.store, account, "hug", { userCooldownSeconds: 0 }, AT + 4),
    ).toMatchObject({ cooldownSeconds: 0, userCooldownSeconds: 0, updatedAt: AT + 4 });
  });

  test("an edit changes what it names and keeps the rest", async () => {
    const account = await db.account();
    await addCustomCommand(
      db.store,
      account,
      {
        name: "deaths",
        response: "$(count) deaths",
        userLevel: "regular",
        cooldownSeconds: 30,
        aliasTarget: "other",
        count: 4,
      },
      AT,
    );
    const edited = await editCustomCommand(
      db.store,
      account,
      "!Deaths",
      { response: "died $(count) times" },
      AT + 5,
    );
    expect(edited).toEqual({
      name: "deaths",
      response: "died $(count) times",
      userLevel: "regular",
      cooldownSeconds: 30,
      userCooldownSeconds: 0,
      aliasTarget: "other",
      count: 4,
      createdAt: AT,
      updatedAt: AT + 5,
    });
    const again = await editCustomCommand(
      db.store,
      account,
      "deaths",
      { userLevel: "twitch_vip", cooldownSeconds: 0, aliasTarget: null, count: 9 },
      AT + 6,
    );
    expect(again).toMatchObject({
      response: "died $(count) times",
      userLevel: "twitch_vip",
      cooldownSeconds: 0,
      aliasTarget: null,
      count: 9,
    });
    // Nothing named: nothing changes, not even the time.
    expect(await editCustomCommand(db.store, account, "deaths", {}, AT + 7)).toEqual(again);
    expect(await editCustomCommand(db.store, account, "nosuch", { response: "x" }, AT)).toBeUndefined();
  });

  test("an invalid edit is refused whole: no field of it is stored", async () => {
    const account = await db.account();
    await addCustomCommand(db.store, account, { name: "hi", response: "hello" }, AT);
    const error = await refusal(() =>
      editCustomCommand(db.store, account, "hi", { response: "changed", cooldownSeconds: 3 }, AT + 1),
    );
    expect(error.field).toBe("cooldownSeconds");
    expect(await getCustomCommand(db.store, account, "hi")).toMatchObject({
      response: "hello",
      updatedAt: AT,
    });
    expect(
      (await refusal(() => editCustomCommand(db.store, account, "hi", { aliasTarget: "!HI" }, AT))).field,
    ).toBe("aliasTarget");
  });

  test("delete: true once, then false; the other account's namesake stays", async () => {
    const account = await db.account();
    const other = await db.account();
    await addCustomCommand(db.store, account, { name: "bye", response: "cya" }, AT);
    await addCustomCommand(db.store, other, { name: "bye", response: "cya" }, AT);
    expect(await deleteCustomCommand(db.store, account, "!BYE")).toBe(true);
    expect(await deleteCustomCommand(db.store, account, "bye")).toBe(false);
    expect(await getCustomCommand(db.store, account, "bye")).toBeUndefined();
    expect(await getCustomCommand(db.store, other, "bye")).toBeDefined();
    // The name is free again, its count starting over.
    expect((await addCustomCommand(db.store, account, { name: "bye", response: "again" }, AT)).count).toBe(0);
  });

  test("the count: increments answer the new value, counts down, is set, and stays within the column", async () => {
    const account = await db.account();
    await addCustomCommand(db.store, account, { name: "deaths", response: "$(count)" }, AT);
    expect(await incrementCommandCount(db.store, account, "deaths")).toBe(1);
    expect(await incrementCommandCount(db.store, account, "!Deaths")).toBe(2);
    expect(await incrementCommandCount(db.store, account, "deaths", 10)).toBe(12);
    expect(await incrementCommandCount(db.store, account, "deaths", -13)).toBe(-1);
    expect(await setCommandCount(db.store, account, "deaths", 12)).toBe(12);
    expect((await getCustomCommand(db.store, account, "deaths"))?.count).toBe(12);
    // A count change is use, not an edit.
    expect((await getCustomCommand(db.store, account, "deaths"))?.updatedAt).toBe(AT);

    expect(await incrementCommandCount(db.store, account, "nosuch")).toBeUndefined();
    expect(await setCommandCount(db.store, account, "nosuch", 3)).toBeUndefined();

    expect(await setCommandCount(db.store, account, "deaths", 2_147_483_647)).toBe(2_147_483_647);
    const over = await refusal(() => incrementCommandCount(db.store, account, "deaths"));
    expect([over.code, over.field, over.message]).toEqual([
      "invalid_input",
      "count",
      "!deaths's count cannot go beyond -2147483648 to 2147483647.",
    ]);
    expect(await incrementCommandCount(db.store, account, "deaths", -1)).toBe(2_147_483_646);
    await setCommandCount(db.store, account, "deaths", -2_147_483_648);
    expect((await refusal(() => incrementCommandCount(db.store, account, "deaths", -1))).field).toBe("count");
    expect((await getCustomCommand(db.store, account, "deaths"))?.count).toBe(-2_147_483_648);

    for (const value of [2 ** 31, -(2 ** 31) - 1, 1.5, Number.NaN]) {
      expect((await refusal(() => setCommandCount(db.store, account, "deaths", value))).field).toBe("count");
    }
    for (const by of [1_000_001, 0.5, Number.NaN]) {
      expect((await refusal(() => incrementCommandCount(db.store, account, "deaths", by))).field).toBe("by");
    }
    expect((await getCustomCommand(db.store, account, "deaths"))?.count).toBe(-2_147_483_648);
  });

  test("50 concurrent increments from two separate connections end at exactly +50, each answer distinct", async () => {
    const account = await db.account();
    await addCustomCommand(db.store, account, { name: "deaths", response: "$(count)", count: 100 }, AT);
    const second = db.connect();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        incrementCommandCount(i % 2 ? second : db.store, account, "deaths"),
      ),
    );
    expect(answers.toSorted((a, b) => a! - b!)).toEqual(Array.from({ length: 50 }, (_, i) => 101 + i));
    expect((await getCustomCommand(second, account, "deaths"))?.count).toBe(150);
  });

  test.skipIf(engine !== "sqlite")(
    "SQLite: increments from another process at the same moment as this one's are all counted",
    async () => {
      const account = await db.account();
      await addCustomCommand(db.store, account, { name: "deaths", response: "$(count)" }, AT);
      for (const each of [25, 1000]) {
        const before = (await getCustomCommand(db.store, account, "deaths"))!.count;
        const other = await startOtherProcess(db.location, "increment", account, each);
        await other.go();
        const mine: number[] = [];
        for (let i = 0; i < each; i++) mine.push((await incrementCommandCount(db.store, account, "deaths"))!);
        const theirs = await other.results;
        const all = [...mine, ...theirs].toSorted((a, b) => a - b);
        expect(all).toEqual(Array.from({ length: 2 * each }, (_, i) => before + 1 + i));
        expect((await getCustomCommand(db.store, account, "deaths"))?.count).toBe(before + 2 * each);
      }
    },
    60_000,
  );
});
