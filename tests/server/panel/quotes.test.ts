import { afterEach, describe, expect, test } from "bun:test";
import { addQuote, allQuotes, type Quote } from "../../../db/quotes.ts";
import { type BotHarness, startBotHarness } from "../../helpers/bot.ts";
import { TROLL_TEXTS } from "../../helpers/troll-texts.ts";
import { call, expectDocumented, expectPanelSecurity, expectRefusal } from "./chat-bot-panel.ts";

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

const BASE = "/api/dashboard/quotes";
const stored = () => allQuotes(h.ctx.db, h.account.id);

interface QuoteList {
  items: Quote[];
  next: number | null;
  total: number;
  limit: number;
}

const page = async (query = "") => (await call<QuoteList>(h, "GET", `${BASE}${query}`)).body.data;

describe("quotes on the dashboard", () => {
  test("add, list, edit, delete; numbers are never given again", async () => {
    h = await startBotHarness();
    expect(await page()).toEqual({ items: [], next: null, total: 0, limit: 10_000 });
    const first = await call<Quote>(h, "POST", BASE, { text: "  I never miss.  ", game: "VALORANT" });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ number: 1, text: "I never miss.", game: "VALORANT" });
    expect((await call<Quote>(h, "POST", BASE, { text: "Second" })).body.data).toMatchObject({
      number: 2,
      game: null,
    });

    const edited = await call<Quote>(h, "PUT", `${BASE}/1`, { game: null });
    expect(edited.body.data).toMatchObject({ number: 1, text: "I never miss.", game: null });
    const retold = await call<Quote>(h, "PUT", `${BASE}/1`, { text: "I rarely miss." });
    expect(retold.body.data).toMatchObject({ text: "I rarely miss.", game: null });

    expect(await call(h, "DELETE", `${BASE}/2`)).toMatchObject({
      status: 200,
      body: { data: { number: 2, deleted: true } },
    });
    expect((await call<Quote>(h, "POST", BASE, { text: "Third" })).body.data.number).toBe(3);
    expect((await page()).items.map((q) => [q.number, q.text])).toEqual([
      [1, "I rarely miss."],
      [3, "Third"],
    ]);
  });

  test("search and paging", async () => {
    h = await startBotHarness();
    const now = h.ctx.clock.now();
    for (let i = 1; i <= 25; i++) {
      await addQuote(h.ctx.db, h.account.id, { text: i % 5 === 0 ? `GG number ${i}` : `quote ${i}` }, now);
    }
    const first = await page();
    expect(first.items).toHaveLength(20);
    expect(first).toMatchObject({ next: 20, total: 25 });
    const second = await page(`?after=${first.next}`);
    expect(second.items.map((q) => q.number)).toEqual([21, 22, 23, 24, 25]);
    expect(second.next).toBeNull();
    const gg = await page("?search=gg&limit=2");
    expect(gg.items.map((q) => q.text)).toEqual(["GG number 5", "GG number 10"]);
    expect(gg).toMatchObject({ next: 10, total: 5 });
    expect((await page("?search=100%25")).items).toEqual([]);
    expect((await page(`?search=${"x".repeat(600)}`)).items).toEqual([]);
    // PostgreSQL refuses NUL in a parameter: a control character matches nothing rather than a 500.
    expect((await page("?search=%00")).items).toEqual([]);
    expect((await page("?search=a%1B")).items).toEqual([]);
  });

  test("bad inputs are refused naming their field, and nothing changes", async () => {
    h = await startBotHarness();
    await call(h, "POST", BASE, { text: "Keep me", game: "Chess" });
    const bad: [string, string, unknown, string][] = [
      ["POST", BASE, {}, "text"],
      ["POST", BASE, { text: "" }, "text"],
      ["POST", BASE, { text: "x".repeat(501) }, "text"],
      ["POST", BASE, { text: "two\nlines" }, "text"],
      ["POST", BASE, { text: 12 }, "text"],
      ["POST", BASE, { text: "ok", game: "g".repeat(201) }, "game"],
      ["POST", BASE, { text: "ok", game: 5 }, "game"],
      ["POST", BASE, { text: "ok", number: 9 }, "number"],
      ["PUT", `${BASE}/1`, { text: "  " }, "text"],
      ["PUT", `${BASE}/one`, { text: "x" }, "number"],
      ["GET", `${BASE}?limit=101`, undefined, "limit"],
      ["GET", `${BASE}?limit=0`, undefined, "limit"],
      ["GET", `${BASE}?limit=ten`, undefined, "limit"],
      ["GET", `${BASE}?after=-1`, undefined, "after"],
    ];
    for (const [method, path, body, field] of bad) {
      expectRefusal(await call(h, method, path, body), 400, "bad_request", field);
    }
    expectRefusal(await call(h, "PUT", `${BASE}/7`, { text: "x" }), 404, "not_found", "number");
    expectRefusal(await call(h, "DELETE", `${BASE}/7`), 404, "not_found", "number");
    expectRefusal(await call(h, "DELETE", `${BASE}/99999999999`), 400, "bad_request", "number");
    expect(await stored()).toMatchObject([{ number: 1, text: "Keep me", game: "Chess" }]);
  });

  test("trolls' texts are stored as quotes (the streamer's list), one line each", async () => {
    h = await startBotHarness();
    for (const text of TROLL_TEXTS) expect((await call(h, "POST", BASE, { text })).status).toBe(200);
    expect((await stored()).map((q) => q.text)).toEqual(TROLL_TEXTS);
  });

  test("no session is 401, a foreign Origin 403, and /docs lists the routes with the panel's security", async () => {
    h = await startBotHarness();
    await call(h, "POST", BASE, { text: "Keep me" });
    await expectPanelSecurity(h, [
      { method: "GET", path: BASE },
      { method: "POST", path: BASE, body: { text: "x" } },
      { method: "PUT", path: `${BASE}/1`, body: { text: "y" } },
      { method: "DELETE", path: `${BASE}/1` },
    ]);
    expect(await stored()).toMatchObject([{ number: 1, text: "Keep me" }]);
    await expectDocumented(h, { [BASE]: ["get", "post"], [`${BASE}/{number}`]: ["put", "delete"] });
  });
});
