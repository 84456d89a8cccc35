import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ChatBotDataError } from "../../db/chat-bot-rules.ts";
import {
  addQuote,
  allQuotes,
  countQuotes,
  deleteQuote,
  editQuote,
  getQuote,
  listQuotes,
  randomQuote,
} from "../../db/quotes.ts";
import { seededRandom } from "../../server/bot/chance.ts";
import { TROLL_TEXTS } from "../helpers/troll-texts.ts";
import { startOtherProcess } from "./other-process.ts";
import { refusal } from "./refusal.ts";
import { engine, engineMissing, openStoreUnderTest, type StoreUnderTest } from "./store-under-test.ts";

const AT = Date.UTC(2026, 10, 26, 21, 0, 0, 456);

describe.skipIf(engineMissing)(`quotes (${engine})`, () => {
  let db: StoreUnderTest;
  beforeAll(async () => {
    db = await openStoreUnderTest();
  });
  afterAll(() => db?.close());

  /** `n` quotes numbered 1…n written straight into the tables, as if added one by one (far faster). */
  async function seedQuotes(account: number, n: number): Promise<void> {
    for (let from = 0; from < n; from += 1000) {
      const rows = Array.from({ length: Math.min(1000, n - from) }, (_, i) => ({
        accountId: account,
        number: from + i + 1,
        text: `q${from + i + 1}`,
        searchText: `q${from + i + 1}`,
        createdAt: AT,
        updatedAt: AT,
      }));
      await db.store.run((d, t) => d.insert(t.quotes).values(rows));
    }
    await db.store.run((d, t) => d.insert(t.quoteCounters).values({ accountId: account, lastNumber: n }));
  }

  /** An account with quotes `texts` (numbers 1…n). */
  async function accountWith(texts: string[], game: string | null = null): Promise<number> {
    const account = await db.account();
    for (const text of texts) await addQuote(db.store, account, { text, game }, AT);
    return account;
  }

  test("numbered 1, 2, 3 per account, with text, game and date; read back by number", async () => {
    const account = await db.account();
    const other = await db.account();
    const first = await addQuote(db.store, account, { text: " I never miss. ", game: "VALORANT" }, AT);
    expect(first).toEqual({
      number: 1,
      text: "I never miss.",
      game: "VALORANT",
      createdAt: AT,
      updatedAt: AT,
    });
    expect((await addQuote(db.store, account, { text: "second" }, AT + 1)).number).toBe(2);
    expect((await addQuote(db.store, other, { text: "elsewhere", game: "  " }, AT)).number).toBe(1);
    expect(await getQuote(db.store, account, 1)).toEqual(first);
    expect(await getQuote(db.store, account, 2)).toMatchObject({ text: "second", game: null });
    expect(await getQuote(db.store, other, 1)).toMatchObject({ text: "elsewhere", game: null });
    for (const number of [0, 3, -1, 1.5, Number.NaN, 2 ** 31, 2 ** 53]) {
      expect(await getQuote(db.store, account, number)).toBeUndefined();
    }
    expect(await countQuotes(db.store, account)).toBe(2);
  });

  test("a deleted quote's number is never given again; a gap stays a gap", async () => {
    const account = await accountWith(["one", "two", "three"]);
    expect(await deleteQuote(db.store, account, 3)).toBe(true);
    expect(await deleteQuote(db.store, account, 3)).toBe(false);
    expect(await deleteQuote(db.store, account, 2)).toBe(true);
    expect((await addQuote(db.store, account, { text: "four" }, AT)).number).toBe(4);
    expect((await allQuotes(db.store, account)).map((q) => [q.number, q.text])).toEqual([
      [1, "one"],
      [4, "four"],
    ]);
    expect(await getQuote(db.store, account, 2)).toBeUndefined();
    for (const number of [0, -1, 0.5, 2 ** 40])
      expect(await deleteQuote(db.store, account, number)).toBe(false);
  });

  test("edit changes the text or the game and keeps the rest; the number stays", async () => {
    const account = await accountWith(["typo hre"], "Chess");
    expect(await editQuote(db.store, account, 1, { text: "typo here" }, AT + 9)).toEqual({
      number: 1,
      text: "typo here",
      game: "Chess",
      createdAt: AT,
      updatedAt: AT + 9,
    });
    expect(await editQuote(db.store, account, 1, { game: null }, AT + 10)).toMatchObject({
      text: "typo here",
      game: null,
    });
    expect(await editQuote(db.store, account, 1, { game: "Just Chatting" }, AT + 11)).toMatchObject({
      game: "Just Chatting",
    });
    expect(await editQuote(db.store, account, 2, { text: "nothing there" }, AT)).toBeUndefined();
    const error = await refusal(() => editQuote(db.store, account, 1, { text: "\n" }, AT + 12));
    expect([error.code, error.field, error.message]).toEqual([
      "invalid_input",
      "text",
      "A quote cannot be empty.",
    ]);
    // The search follows an edit.
    expect((await listQuotes(db.store, account, { matching: "HERE" })).items.map((q) => q.number)).toEqual([
      1,
    ]);
    expect((await listQuotes(db.store, account, { matching: "hre" })).items).toEqual([]);
  });

  test("texts: one line of 1 to 500 characters, kept as given; games up to 200", async () => {
    const account = await db.account();
    for (const [text, message] of [
      ["", "A quote cannot be empty."],
      ["x".repeat(501), "A quote is 500 characters at most (this one has 501)."],
      ["a\r\nb", "A quote must be one line of plain text (no line breaks or control characters)."],
      ["\u0000", "A quote must be one line of plain text (no line breaks or control characters)."],
    ] as const) {
      const error = await refusal(() => addQuote(db.store, account, { text }, AT));
      expect([error.code, error.field, error.message]).toEqual(["invalid_input", "text", message]);
    }
    const game = await refusal(() => addQuote(db.store, account, { text: "ok", game: "g".repeat(201) }, AT));
    expect([game.field, game.message]).toEqual([
      "game",
      "The game is 200 characters at most (this one has 201).",
    ]);
    expect(await countQuotes(db.store, account)).toBe(0);
    // A refused add uses up no number.
    expect((await addQuote(db.store, account, { text: "🎲".repeat(500) }, AT)).number).toBe(1);
    for (const text of TROLL_TEXTS) {
      const added = await addQuote(db.store, account, { text }, AT);
      expect((await getQuote(db.store, account, added.number))?.text).toBe(text);
    }
  });

  test("search: a case-insensitive substring, beyond ASCII too; %, _ and \\ are literal", async () => {
    const account = await accountWith([
      "GG EZ",
      "that was eggcellent",
      "ÉCOLE in French",
      "100% sure",
      "snake_case",
      "back\\slash",
      "nothing here",
    ]);
    const found = async (matching: string) =>
      (await listQuotes(db.store, account, { matching })).items.map((q) => q.number);
    expect(await found("gg")).toEqual([1, 2]);
    expect(await found("  EGG ")).toEqual([2]);
    expect(await found("école")).toEqual([3]);
    expect(await found("%")).toEqual([4]);
    expect(await found("0% s")).toEqual([4]);
    expect(await found("_")).toEqual([5]);
    expect(await found("\\")).toEqual([6]);
    // As LIKE's wildcards they would match "snake" and "gg ez".
    expect(await found("a_e")).toEqual([]);
    expect(await found("g%z")).toEqual([]);
    expect(await found("zzz")).toEqual([]);
    expect(await found("x".repeat(501))).toEqual([]);
    expect(await found("")).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(await countQuotes(db.store, account, "GG")).toBe(2);
    expect(await countQuotes(db.store, account, "x".repeat(501))).toBe(0);
    for (const text of TROLL_TEXTS) expect(await found(text)).toEqual([]);
  });

  test("search: a term with a control character (NUL included) matches nothing, never an error", async () => {
    const account = await accountWith(["a b quote", "tab here", "plain"]);
    for (const matching of ["\u0000", "a\u0000", "ta\tb", "x\u001b[31m", "\u007f", "\u0085"]) {
      expect((await listQuotes(db.store, account, { matching })).items).toEqual([]);
      expect(await countQuotes(db.store, account, matching)).toBe(0);
      expect(await randomQuote(db.store, account, Math.random, matching)).toBeUndefined();
    }
    expect(await countQuotes(db.store, account, "plain")).toBe(1);
  });

  test("random: one of the quotes (of the matching ones), drawn with the given source", async () => {
    const account = await accountWith(["alpha one", "beta two", "alpha three"]);
    expect(await randomQuote(db.store, await db.account(), Math.random)).toBeUndefined();
    expect((await randomQuote(db.store, account, () => 0))?.number).toBe(1);
    expect((await randomQuote(db.store, account, () => 0.999999))?.number).toBe(3);
    expect((await randomQuote(db.store, account, () => 0.5))?.number).toBe(2);
    expect((await randomQuote(db.store, account, () => 0.999, "ALPHA"))?.number).toBe(3);
    expect(await randomQuote(db.store, account, Math.random, "gamma")).toBeUndefined();
    expect(await randomQuote(db.store, account, Math.random, "x".repeat(600))).toBeUndefined();
    const seen = new Set<number>();
    const random = seededRandom(7);
    for (let i = 0; i < 100; i++) seen.add((await randomQuote(db.store, account, random))!.number);
    expect([...seen].sort()).toEqual([1, 2, 3]);
  });

  test("list pages by number: limit 1–100 (default 20), `next` until the last page", async () => {
    const account = await accountWith(Array.from({ length: 45 }, (_, i) => `quote ${i + 1}`));
    await deleteQuote(db.store, account, 10);
    const first = await listQuotes(db.store, account);
    expect(first.items).toHaveLength(20);
    expect(first.items[9]!.number).toBe(11);
    expect(first.next).toBe(21);
    const second = await listQuotes(db.store, account, { after: first.next! });
    expect(second.items.map((q) => q.number)).toEqual(Array.from({ length: 20 }, (_, i) => 22 + i));
    const last = await listQuotes(db.store, account, { after: second.next! });
    expect(last.items.map((q) => q.number)).toEqual([42, 43, 44, 45]);
    expect(last.next).toBeNull();
    const all = await listQuotes(db.store, account, { limit: 100 });
    expect([all.items.length, all.next]).toEqual([44, null]);
    const exact = await listQuotes(db.store, account, { limit: 44 });
    expect([exact.items.length, exact.next]).toEqual([44, null]);
    const paged = await listQuotes(db.store, account, { matching: "quote 1", limit: 3 });
    expect([paged.items.map((q) => q.number), paged.next]).toEqual([[1, 11, 12], 12]);

    for (const limit of [0, 101, 1.5, Number.NaN]) {
      expect((await refusal(() => listQuotes(db.store, account, { limit }))).message).toBe(
        "A page holds 1 to 100 quotes.",
      );
    }
    for (const after of [-1, 0.5, 2 ** 31]) {
      expect((await refusal(() => listQuotes(db.store, account, { after }))).field).toBe("after");
    }
  });

  test("at most 10,000 per account, exactly, even with adds racing for the last places", async () => {
    const account = await db.account();
    const other = await db.account();
    await seedQuotes(account, 9_990);
    // PostgreSQL: two pools. SQLite: one connection, whose transactions queue; two connections in one
    // process would block each other's thread (the other process's test below covers two).
    const second = engine === "postgres" ? db.connect() : db.store;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        addQuote(i % 2 ? db.store : second, account, { text: `race ${i}` }, AT),
      ),
    );
    const added = outcomes.filter((o) => o.status === "fulfilled");
    const refused = outcomes.flatMap((o) => (o.status === "rejected" ? [o.reason as ChatBotDataError] : []));
    expect(added).toHaveLength(10);
    expect(refused.map((e) => [e.code, e.message])).toEqual(
      Array(10).fill(["limit_reached", "A channel has at most 10,000 quotes; delete one first."]),
    );
    expect(await countQuotes(db.store, account)).toBe(10_000);
    expect((await addQuote(db.store, other, { text: "another channel" }, AT)).number).toBe(1);
    await deleteQuote(db.store, account, 1);
    // Refused adds gave their numbers back: the next is 10,001.
    expect((await addQuote(db.store, account, { text: "room again" }, AT)).number).toBe(10_001);
  }, 120_000);

  test.skipIf(engine !== "postgres")(
    "PostgreSQL: adds at once from two pools get distinct numbers",
    async () => {
      const account = await db.account();
      const second = db.connect();
      const numbers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          addQuote(i % 2 ? second : db.store, account, { text: `q${i}` }, AT),
        ),
      );
      expect(numbers.map((q) => q.number).toSorted((a, b) => a - b)).toEqual(
        Array.from({ length: 40 }, (_, i) => i + 1),
      );
      expect(await countQuotes(second, account)).toBe(40);
    },
  );

  test.skipIf(engine !== "sqlite")(
    "SQLite: adds from another process at the same moment as this one's get distinct numbers",
    async () => {
      const account = await db.account();
      const other = await startOtherProcess(db.location, "quote", account, 300);
      await other.go();
      const mine: number[] = [];
      for (let i = 0; i < 300; i++)
        mine.push((await addQuote(db.store, account, { text: `mine ${i}` }, AT)).number);
      const all = [...mine, ...(await other.results)].toSorted((a, b) => a - b);
      expect(all).toEqual(Array.from({ length: 600 }, (_, i) => i + 1));
      expect(await countQuotes(db.store, account)).toBe(600);
    },
    60_000,
  );
});
