import { afterEach, describe, expect, test } from "bun:test";
import { CHAT_BOT_LIMITS } from "../../../db/chat-bot-rules.ts";
import { addTimer, listTimers, type Timer } from "../../../db/timers.ts";
import { type BotHarness, startBotHarness } from "../../helpers/bot.ts";
import { call, expectDocumented, expectPanelSecurity, expectRefusal } from "./chat-bot-panel.ts";

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

const BASE = "/api/dashboard/timers";
const stored = () => listTimers(h.ctx.db, h.account.id);
const SOCIALS = { name: "socials", message: "Follow on X: @example", intervalMinutes: 15 };

describe("timers on the dashboard", () => {
  test("add with Nightbot's defaults, list, edit keeping what is not given, delete", async () => {
    h = await startBotHarness();
    expect((await call(h, "GET", BASE)).body.data).toEqual({ items: [], limit: 50 });
    const added = await call<Timer>(h, "POST", BASE, SOCIALS);
    expect(added.status).toBe(200);
    expect(added.body.data).toMatchObject({ ...SOCIALS, minChatLines: 2, enabled: true, lastPostedAt: null });
    const id = added.body.data.id;
    await call(h, "POST", BASE, {
      name: "hydrate",
      message: "Drink water!",
      intervalMinutes: 60,
      minChatLines: 0,
      enabled: false,
    });
    const listed = (await call<{ items: Timer[] }>(h, "GET", BASE)).body.data.items;
    expect(listed.map((t) => [t.name, t.intervalMinutes, t.enabled])).toEqual([
      ["socials", 15, true],
      ["hydrate", 60, false],
    ]);

    const edited = await call<Timer>(h, "PUT", `${BASE}/${id}`, { enabled: false, intervalMinutes: 5 });
    expect(edited.body.data).toMatchObject({
      ...SOCIALS,
      intervalMinutes: 5,
      enabled: false,
      minChatLines: 2,
    });

    expect(await call(h, "DELETE", `${BASE}/${id}`)).toMatchObject({
      status: 200,
      body: { data: { id, deleted: true } },
    });
    expect((await stored()).map((t) => t.name)).toEqual(["hydrate"]);
  });

  test("every change tells native chat's timers of this process, for this channel only; a refusal does not", async () => {
    h = await startBotHarness();
    const told: number[] = [];
    const unsubscribe = h.ctx.chatBot.onTimersChanged((accountId) => told.push(accountId));
    const id = (await call<Timer>(h, "POST", BASE, SOCIALS)).body.data.id;
    expect(told).toEqual([h.account.id]);
    await call(h, "PUT", `${BASE}/${id}`, { enabled: false });
    expect(told).toEqual([h.account.id, h.account.id]);
    expect((await call(h, "PUT", `${BASE}/${id}`, { intervalMinutes: 1 })).status).toBe(400);
    expect((await call(h, "DELETE", `${BASE}/${id + 1000}`)).status).toBe(404);
    expect(told).toHaveLength(2);
    await call(h, "DELETE", `${BASE}/${id}`);
    expect(told).toEqual([h.account.id, h.account.id, h.account.id]);
    unsubscribe();
    await call(h, "POST", BASE, SOCIALS);
    expect(told).toHaveLength(3);
  });

  test("bad inputs are refused naming their field, and nothing changes", async () => {
    h = await startBotHarness();
    const id = (await call<Timer>(h, "POST", BASE, SOCIALS)).body.data.id;
    const bad: [string, string, unknown, string][] = [
      ["POST", BASE, { message: "m", intervalMinutes: 5 }, "name"],
      ["POST", BASE, { name: "n", intervalMinutes: 5 }, "message"],
      ["POST", BASE, { name: "n", message: "m" }, "intervalMinutes"],
      ["POST", BASE, { name: "n", message: "m", intervalMinutes: 4 }, "intervalMinutes"],
      ["POST", BASE, { name: "n", message: "m", intervalMinutes: 61 }, "intervalMinutes"],
      ["POST", BASE, { name: "n", message: "m", intervalMinutes: "15" }, "intervalMinutes"],
      ["POST", BASE, { name: "n", message: "m", intervalMinutes: 5, minChatLines: -1 }, "minChatLines"],
      ["POST", BASE, { name: "n", message: "m", intervalMinutes: 5, minChatLines: 101 }, "minChatLines"],
      ["POST", BASE, { name: "n", message: "m", intervalMinutes: 5, enabled: "yes" }, "enabled"],
      ["POST", BASE, { name: "x".repeat(51), message: "m", intervalMinutes: 5 }, "name"],
      ["POST", BASE, { name: "n", message: "m".repeat(501), intervalMinutes: 5 }, "message"],
      ["POST", BASE, { name: "n", message: "a\nb", intervalMinutes: 5 }, "message"],
      ["POST", BASE, { name: "n", message: "m", intervalMinutes: 5, every: 3 }, "every"],
      ["PUT", `${BASE}/${id}`, { intervalMinutes: 90 }, "intervalMinutes"],
      ["PUT", `${BASE}/${id}`, { message: "" }, "message"],
      ["PUT", `${BASE}/abc`, { enabled: true }, "id"],
    ];
    for (const [method, path, body, field] of bad) {
      expectRefusal(await call(h, method, path, body), 400, "bad_request", field);
    }
    expectRefusal(
      await call(h, "POST", BASE, { ...SOCIALS, name: "socials" }),
      409,
      "already_exists",
      "name",
    );
    await call(h, "POST", BASE, { ...SOCIALS, name: "other" });
    expectRefusal(await call(h, "PUT", `${BASE}/${id}`, { name: "other" }), 409, "already_exists", "name");
    expectRefusal(await call(h, "PUT", `${BASE}/999`, { enabled: true }), 404, "not_found", "id");
    expectRefusal(await call(h, "DELETE", `${BASE}/999`), 404, "not_found", "id");
    expect((await stored()).map((t) => [t.name, t.message, t.intervalMinutes])).toEqual([
      ["socials", SOCIALS.message, 15],
      ["other", SOCIALS.message, 15],
    ]);
  });

  test("a channel keeps at most 50 timers", async () => {
    h = await startBotHarness();
    const now = h.ctx.clock.now();
    for (let i = 0; i < CHAT_BOT_LIMITS.timersPerAccount; i++) {
      await addTimer(h.ctx.db, h.account.id, { name: `t${i}`, message: "m", intervalMinutes: 5 }, now);
    }
    expectRefusal(await call(h, "POST", BASE, SOCIALS), 409, "limit_reached", "name");
    expect(await stored()).toHaveLength(CHAT_BOT_LIMITS.timersPerAccount);
  });

  test("no session is 401, a foreign Origin 403, and /docs lists the routes with the panel's security", async () => {
    h = await startBotHarness();
    const id = (await call<Timer>(h, "POST", BASE, SOCIALS)).body.data.id;
    await expectPanelSecurity(h, [
      { method: "GET", path: BASE },
      { method: "POST", path: BASE, body: { ...SOCIALS, name: "new" } },
      { method: "PUT", path: `${BASE}/${id}`, body: { enabled: false } },
      { method: "DELETE", path: `${BASE}/${id}` },
    ]);
    expect(await stored()).toMatchObject([{ name: "socials", enabled: true }]);
    await expectDocumented(h, { [BASE]: ["get", "post"], [`${BASE}/{id}`]: ["put", "delete"] });
  });
});
