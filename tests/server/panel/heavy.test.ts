import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { findAccountByLogin } from "../../../db/accounts.ts";
import { assignRole } from "../../../server/core/accounts.ts";
import { type BotHarness, startBotHarness } from "../../helpers/bot.ts";

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

type Page<T> = { items: T[]; cursor: string | null };
const page = async <T>(res: Response) => ((await res.json()) as { data: Page<T> }).data;

describe("GET /api/dashboard/get-clips", () => {
  test("with the API key: most viewed first, paged by cursor, under the heavy quota", async () => {
    const first = await h.bot("/api/dashboard/get-clips?first=5&period=all");
    expect(first.status).toBe(200);
    expect(first.headers.get("x-ratelimit-limit")).toBe("5");
    const one = await page<Record<string, unknown>>(first);
    expect(one.items).toHaveLength(5);
    expect(Object.keys(one.items[0]!).sort()).toEqual(
      ["created_at", "creator_name", "duration", "id", "thumbnail_url", "title", "url", "view_count"].sort(),
    );
    const views = one.items.map((c) => c.view_count as number);
    expect(views).toEqual([...views].sort((a, b) => b - a));
    expect(one.cursor).not.toBeNull();
    const two = await page<{ id: string }>(
      await h.bot(`/api/dashboard/get-clips?first=5&period=all&after=${one.cursor}`),
    );
    expect(two.items[0]!.id).not.toBe(one.items[0]!.id);
  });

  test("the period narrows to recent clips (default a week)", async () => {
    const day = await page(await h.bot("/api/dashboard/get-clips?period=day"));
    const week = await page(await h.bot("/api/dashboard/get-clips"));
    const month = await page(await h.bot("/api/dashboard/get-clips?period=month&first=100"));
    expect(day.items.length).toBe(1);
    expect(week.items.length).toBe(3);
    expect(month.items.length).toBe(12);
  });

  test("bad parameters → 400 naming them", async () => {
    for (const query of ["first=0", "first=101", "first=abc", "period=year"]) {
      const res = await h.bot(`/api/dashboard/get-clips?${query}`);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("bad_request");
      expect(body.error.message).toContain(query.split("=")[0]!);
    }
  });

  test("a cursor Twitch does not know → 400 naming `after`; another Twitch refusal → 502, never a bare 4xx", async () => {
    const bad = await h.bot("/api/dashboard/get-clips?after=not-a-cursor");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toContain('"after"');
    h.sim.knobs.failNext.set("GET /clips", { status: 404, message: "unknown" });
    const refused = await h.panel("/api/dashboard/get-clips?period=all");
    expect(refused.status).toBe(502);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("upstream_error");
  });

  test("the heavy quota is its own: the 6th call is refused while bot calls still work", async () => {
    for (let i = 0; i < 5; i++) {
      const res = await h.bot(`/api/dashboard/chatters?first=${i + 1}`);
      expect(res.headers.get("x-ratelimit-remaining")).toBe(String(4 - i));
    }
    const refused = await h.bot("/api/dashboard/get-clips");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const bot = await h.bot("/api/bot/coinflip");
    expect(bot.status).toBe(200);
    expect(bot.headers.get("x-ratelimit-remaining")).toBe("29");
  });

  test("with the session it counts against the panel limit; with nothing it is 401", async () => {
    const res = await h.panel("/api/dashboard/get-clips");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ratelimit-limit")).toBe("500");
    const anonymous = await h.request("/api/dashboard/get-clips");
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe("not_authenticated");
  });
});

describe("GET /api/dashboard/chatters", () => {
  test("pages through everyone in chat", async () => {
    const one = await page<{ user_login: string }>(await h.panel("/api/dashboard/chatters?first=40"));
    expect(one.items).toHaveLength(40);
    expect(Object.keys(one.items[0]!).sort()).toEqual(["user_id", "user_login", "user_name"]);
    const two = await page<{ user_login: string }>(
      await h.panel(`/api/dashboard/chatters?first=40&after=${one.cursor}`),
    );
    expect(two.items).toHaveLength(7);
    expect(two.cursor).toBeNull();
    expect((await h.panel("/api/dashboard/chatters?first=1001")).status).toBe(400);
  });
});

describe("quotas follow the role at once", () => {
  test("the 31st bot call in a minute is refused; a role change applies to the same window", async () => {
    for (let i = 0; i < 30; i++) expect((await h.bot("/api/bot/coinflip")).status).toBe(200);
    const refused = await h.bot("/api/bot/coinflip?format=text");
    expect(refused.headers.get("x-cuebot-status")).toBe("429");
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(await refused.text()).toContain("bot quota (30 requests per minute)");
    await assignRole(h.ctx, (await findAccountByLogin(h.ctx.db, "cuebotdemo"))!, "Pro", "cli");
    const after = await h.bot("/api/bot/coinflip");
    expect(after.status).toBe(200);
    expect(after.headers.get("x-ratelimit-limit")).toBe("60");
    expect(after.headers.get("x-ratelimit-remaining")).toBe("29");
    h.clock.advance(60_000);
    expect((await h.bot("/api/bot/coinflip")).headers.get("x-ratelimit-remaining")).toBe("59");
  });
});

describe("a query parameter given twice counts with its first value (docs/chat-bots.md), on dashboard routes too", () => {
  test("analytics, activity, get-clips and chatters read the first value", async () => {
    const days = async (query: string) => {
      const res = await h.panel(`/api/dashboard/analytics?${query}`);
      return res.status === 200 ? ((await res.json()) as { data: { days: number } }).data.days : res.status;
    };
    expect(await days("days=abc&days=3")).toBe(400);
    expect(await days("days=3&days=abc")).toBe(3);
    expect(await days("days=2&days=5")).toBe(2);
    expect((await h.panel("/api/dashboard/activity?before=abc&before=5")).status).toBe(400);
    const clips = await page<unknown>(await h.bot("/api/dashboard/get-clips?first=3&first=50&period=all"));
    expect(clips.items).toHaveLength(3);
    expect((await h.bot("/api/dashboard/get-clips?first=500&first=5")).status).toBe(400);
    expect((await h.bot("/api/dashboard/get-clips?period=year&period=week")).status).toBe(400);
    const chatters = await page<unknown>(await h.panel("/api/dashboard/chatters?first=4&first=40"));
    expect(chatters.items).toHaveLength(4);
    const long = "x".repeat(501);
    expect((await h.panel(`/api/dashboard/chatters?after=${long}&after=ok`)).status).toBe(400);
  });
});
