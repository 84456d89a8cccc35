import { afterEach, describe, expect, test } from "bun:test";
import { alertHistory, recordAlertEvent } from "../../../db/alerts.ts";
import type { Alert } from "../../../server/alerts/model.ts";
import { createSession, SESSION_COOKIE } from "../../../server/core/sessions.ts";
import { AlertFeed } from "../../../server/overlay/alert-hub.ts";
import type { Context } from "../../../server/runtime.ts";
import { type AlertsHarness, startAlertsHarness } from "../../helpers/alerts.ts";
import { type BotHarness, startBotHarness } from "../../helpers/bot.ts";
import { waitFor } from "../../helpers/chat.ts";
import { createTestAccount } from "../../helpers/context.ts";
import { call, expectRefusal } from "./chat-bot-panel.ts";

let stop: (() => Promise<void>) | null = null;
afterEach(async () => {
  await stop?.();
  stop = null;
});

async function harness(): Promise<BotHarness> {
  const h = await startBotHarness();
  stop = () => h.stop();
  return h;
}

/** What one overlay of the account is handed, in order. */
function overlay(ctx: Context, accountId: number): Alert[] {
  const seen: Alert[] = [];
  ctx.alerts.subscribe(accountId, new AlertFeed((alert) => seen.push(alert)));
  return seen;
}

interface HistoryItem {
  id: number;
  type: string;
  test: boolean;
  replay: boolean;
  text: string;
  fields: Record<string, unknown>;
}

describe("POST /api/dashboard/alerts/test", () => {
  test("a test alert of each type is stored marked test and shown on the overlay with sample fields, even when its type is off", async () => {
    const h = await harness();
    const shown = overlay(h.ctx, h.account.id);
    await call(h, "PUT", "/api/dashboard/alerts/types/cheer", { enabled: false, durationSeconds: 9 });
    const reply = await call<Alert>(h, "POST", "/api/dashboard/alerts/test", { type: "cheer" });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({
      type: "cheer",
      test: true,
      text: "CuebotTester cheered 500 bits!",
      durationMs: 9000,
      fields: { user: "CuebotTester", amount: 500 },
    });
    expect(shown).toEqual([reply.body.data]);
    for (const type of ["follow", "subscribe", "resub", "gift", "raid", "redemption"]) {
      const other = await call<Alert>(h, "POST", "/api/dashboard/alerts/test", { type });
      expect(other.body.data.text).not.toMatch(/undefined|null|\{/);
    }
    expect(shown.map((a) => a.type)).toEqual([
      "cheer",
      "follow",
      "subscribe",
      "resub",
      "gift",
      "raid",
      "redemption",
    ]);
    const stored = await alertHistory(h.ctx.db, h.account.id, 10);
    expect(stored.every((e) => e.test && e.eventKey.startsWith("test:"))).toBe(true);
    expect(stored).toHaveLength(7);
  });

  test("a bad type is refused naming the field; nothing is stored or shown", async () => {
    const h = await harness();
    const shown = overlay(h.ctx, h.account.id);
    const bad: unknown[] = [
      { type: "donation" },
      {},
      { type: 5 },
      { type: "cheer", user: "x" },
      "[]",
      { type: "🎉".repeat(5000) },
    ];
    for (const body of bad)
      expectRefusal(await call(h, "POST", "/api/dashboard/alerts/test", body), 400, "bad_request");
    expect(await alertHistory(h.ctx.db, h.account.id, 10)).toEqual([]);
    expect(shown).toEqual([]);
  });
});

describe("history and replay", () => {
  test("the history lists the newest first with the template's text; a replay shows the alert again under a new id", async () => {
    const h = await harness();
    const at = h.ctx.clock.now();
    const base = { amount: null, months: null, tier: null, reward: null, message: null };
    const follow = await recordAlertEvent(h.ctx.db, {
      accountId: h.account.id,
      type: "follow",
      eventKey: "m1",
      fields: { ...base, user: "Mossy_Owl" },
      test: false,
      at,
    });
    await recordAlertEvent(h.ctx.db, {
      accountId: h.account.id,
      type: "raid",
      eventKey: "m2",
      fields: { ...base, user: "QuillAndKettle", amount: 38 },
      test: false,
      at: at + 1,
    });
    const history = async (query = "") =>
      (await call<{ items: HistoryItem[] }>(h, "GET", `/api/dashboard/alerts/history${query}`)).body.data
        .items;
    expect((await history()).map((i) => [i.type, i.text, i.test])).toEqual([
      ["raid", "QuillAndKettle is raiding with 38 viewers!", false],
      ["follow", "Mossy_Owl just followed!", false],
    ]);
    expect(await history("?limit=1")).toHaveLength(1);
    for (const limit of ["0", "201", "abc", "-1"]) {
      expectRefusal(await call(h, "GET", `/api/dashboard/alerts/history?limit=${limit}`), 400, "bad_request");
    }

    const shown = overlay(h.ctx, h.account.id);
    const replay = await call<Alert>(h, "POST", `/api/dashboard/alerts/history/${follow!.id}/replay`);
    expect(replay.status).toBe(200);
    expect(replay.body.data.id).toBeGreaterThan(follow!.id);
    expect(replay.body.data).toMatchObject({ type: "follow", text: "Mossy_Owl just followed!", test: false });
    // An overlay that already showed the first (it remembers the id) shows the replay.
    expect(shown).toEqual([replay.body.data]);
    const items = await history();
    expect(items[0]).toMatchObject({ id: replay.body.data.id, type: "follow", replay: true });
    expect(items).toHaveLength(3);
  });

  test("replaying an alert that is not this channel's, or none, is a 404; a bad id a 400", async () => {
    const h = await harness();
    const { account: other } = await createTestAccount(h.ctx);
    const theirs = await recordAlertEvent(h.ctx.db, {
      accountId: other.id,
      type: "follow",
      eventKey: "x",
      fields: { user: "A", amount: null, months: null, tier: null, reward: null, message: null },
      test: false,
      at: h.ctx.clock.now(),
    });
    expectRefusal(
      await call(h, "POST", `/api/dashboard/alerts/history/${theirs!.id}/replay`),
      404,
      "not_found",
    );
    expectRefusal(await call(h, "POST", "/api/dashboard/alerts/history/999999/replay"), 404, "not_found");
    expectRefusal(
      await call(h, "POST", "/api/dashboard/alerts/history/1e3/replay"),
      400,
      "bad_request",
      "id",
    );
    expect(await alertHistory(h.ctx.db, h.account.id, 10)).toEqual([]);
  });
});

describe("POST /api/dashboard/alerts/simulate", () => {
  test("outside demo mode it is a 404 and the simulator is never asked", async () => {
    const h = await harness();
    expectRefusal(
      await call(h, "POST", "/api/dashboard/alerts/simulate", { type: "raid" }),
      404,
      "not_found",
    );
  });

  test("in demo mode the simulated Twitch fires a real event: it comes back over EventSub onto the overlay, once", async () => {
    const a: AlertsHarness = await startAlertsHarness();
    stop = () => a.stop();
    await a.grant();
    a.serve();
    expect(await a.alertsConnected()).toBe(true);
    a.ctx.config.demo = true;
    const session = await createSession(a.ctx, a.account.id, "test");
    const shown = overlay(a.ctx, a.account.id);
    const simulate = (body: unknown) =>
      a.request("/api/dashboard/alerts/simulate", {
        method: "POST",
        headers: {
          cookie: `${SESSION_COOKIE}=${session.token}`,
          origin: new URL(a.ctx.publicUrl).origin,
          "content-type": "application/json",
        },
        body: JSON.stringify(body),
      });
    const res = await simulate({ type: "raid" });
    expect(res.status).toBe(200);
    expect(await waitFor(() => shown.length > 0, 10_000)).toBe(true);
    await Bun.sleep(300);
    expect(shown.map((alert) => [alert.type, alert.test])).toEqual([["raid", false]]);
    expect(shown[0]!.fields.amount).toBeGreaterThan(0);
    expect((await simulate({ type: "tip" })).status).toBe(400);
  });
});
