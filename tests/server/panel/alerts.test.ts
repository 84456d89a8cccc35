import { afterEach, describe, expect, test } from "bun:test";
import { readAlertChannel, readAlertSettings, recordAlertEvent } from "../../../db/alerts.ts";
import { grantedScopes } from "../../../db/oauth-tokens.ts";
import { defaultAlertSettings } from "../../../server/alerts/model.ts";
import { BASE_SCOPES } from "../../../server/twitch/scopes.ts";
import { type BotHarness, startBotHarness } from "../../helpers/bot.ts";
import { cookieHeader } from "../../helpers/twitch.ts";
import { call, expectDocumented, expectPanelSecurity } from "./chat-bot-panel.ts";

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

interface AlertsData {
  enabled: boolean;
  state: string;
  since: string | null;
  reason: string | null;
  consentUrl: string | null;
  types: { type: string; state: string; reason: string | null; settings: Record<string, unknown> }[];
  overlayUrl: string | null;
  alertsOnlyUrl: string | null;
}

const ALERTS = "/api/dashboard/alerts";
const alerts = async () => (await call<AlertsData>(h, "GET", ALERTS)).body.data;

/** The alerts re-consent: /auth/login?consent=alerts → the simulated Twitch → the callback, in this browser. */
async function consent(): Promise<Response> {
  h.sim.knobs.autoApproveAs = "cuebotdemo";
  const start = await h.request("/auth/login?consent=alerts", { headers: { cookie: h.cookie } });
  expect(start.status).toBe(302);
  const atProvider = await fetch(new URL(start.headers.get("location")!), { redirect: "manual" });
  const callback = new URL(atProvider.headers.get("location")!);
  return h.request(`${callback.pathname}${callback.search}`, {
    headers: { cookie: `${cookieHeader(start.headers.getSetCookie())}; ${h.cookie}` },
  });
}

describe("GET/PUT /api/dashboard/alerts", () => {
  test("off at first: every type listed in order with its default settings, the overlay links, and the consent link", async () => {
    h = await startBotHarness();
    const data = await alerts();
    expect(data).toMatchObject({
      enabled: false,
      state: "off",
      reason: null,
      consentUrl: "/auth/login?consent=alerts",
    });
    expect(data.types.map((t) => [t.type, t.state])).toEqual(
      ["follow", "subscribe", "resub", "gift", "cheer", "raid", "redemption"].map((t) => [t, "off"]),
    );
    expect(data.types.find((t) => t.type === "cheer")!.settings).toEqual({
      ...defaultAlertSettings("cheer"),
    });
    expect(data.overlayUrl).toStartWith("http://localhost:8080/overlay/");
    expect(data.alertsOnlyUrl).toBe(`${data.overlayUrl}?only=alerts`);
  });

  test("turning alerts on without bits:read and channel:read:redemptions: cheers and redemptions need consent, the rest do not", async () => {
    h = await startBotHarness();
    const on = await call<AlertsData>(h, "PUT", ALERTS, { enabled: true });
    expect(on.status).toBe(200);
    expect(on.body.data).toMatchObject({ enabled: true, consentUrl: "/auth/login?consent=alerts" });
    const byType = Object.fromEntries(on.body.data.types.map((t) => [t.type, t]));
    expect(byType.cheer!.state).toBe("needs_consent");
    expect(byType.cheer!.reason).toContain("bits:read");
    expect(byType.redemption!.state).toBe("needs_consent");
    expect(byType.redemption!.reason).toContain("channel:read:redemptions");
    for (const type of ["follow", "subscribe", "resub", "gift", "raid"]) {
      expect(byType[type]!.state).not.toBe("needs_consent");
    }
    expect((await readAlertChannel(h.ctx.db, h.account.id))?.enabled).toBe(true);
    const off = await call<AlertsData>(h, "PUT", ALERTS, { enabled: false });
    expect(off.body.data).toMatchObject({ enabled: false, state: "off" });
  });

  test("turned on where no instance has picked it up yet: connecting, never on with every state off", async () => {
    h = await startBotHarness();
    const on = await call<AlertsData>(h, "PUT", ALERTS, { enabled: true });
    expect((await readAlertChannel(h.ctx.db, h.account.id))?.state).toBe("off");
    expect(on.body.data).toMatchObject({ enabled: true, state: "connecting" });
    const states = new Set(on.body.data.types.map((t) => t.state));
    expect(states.has("off")).toBe(false);
    expect((await alerts()).state).toBe("connecting");
  });

  test("the re-consent asks for every granted scope plus the alerts' two, shows Twitch's page, turns alerts on, and the consent link goes", async () => {
    h = await startBotHarness();
    const start = await h.request("/auth/login?consent=alerts", { headers: { cookie: h.cookie } });
    const authorize = new URL(start.headers.get("location")!);
    expect(authorize.searchParams.get("force_verify")).toBe("true");
    expect(authorize.searchParams.get("scope")!.split(" ").sort()).toEqual(
      [...BASE_SCOPES, "bits:read", "channel:read:redemptions"].sort(),
    );
    const done = await consent();
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/dashboard#/alerts");
    const scopes = await grantedScopes(h.ctx.db, h.account.id);
    expect(scopes).toContain("bits:read");
    expect(scopes).toContain("channel:read:redemptions");
    const data = await alerts();
    expect(data).toMatchObject({ enabled: true, consentUrl: null });
    expect(data.types.every((t) => t.state !== "needs_consent")).toBe(true);
  });

  test("a denied re-consent changes nothing: alerts stay off and the link stays", async () => {
    h = await startBotHarness();
    h.sim.knobs.deny = true;
    expect((await consent()).status).toBe(403);
    expect(await alerts()).toMatchObject({ enabled: false, consentUrl: "/auth/login?consent=alerts" });
  });

  test("bad switch bodies are refused naming the problem, and nothing changes", async () => {
    h = await startBotHarness();
    const bad: [unknown, string | null][] = [
      [{ enabled: "yes" }, "enabled"],
      [{}, "enabled"],
      [{ enabled: true, types: [] }, "types"],
      ["[true]", null],
      ["null", null],
      ['{"enabled": tru', null],
    ];
    for (const [body, field] of bad) {
      const reply = await call(h, "PUT", ALERTS, body);
      expect({ body, status: reply.status }).toEqual({ body, status: 400 });
      if (field) expect(reply.field).toBe(field);
    }
    expect(await readAlertChannel(h.ctx.db, h.account.id)).toBeNull();
  });
});

describe("the overview's activity feed", () => {
  test("lists a follow and a cheer from Twitch beside command calls, newest first; test alerts and replays stay out", async () => {
    h = await startBotHarness();
    const at = h.ctx.clock.now();
    const fields = { amount: null, months: null, tier: null, reward: null, message: null };
    const record = (
      eventKey: string,
      type: "follow" | "cheer",
      user: string,
      amount: number | null,
      when: number,
    ) =>
      recordAlertEvent(h.ctx.db, {
        accountId: h.account.id,
        type,
        eventKey,
        fields: { ...fields, user, amount },
        test: eventKey.startsWith("test:"),
        at: when,
      });
    await record("msg-1", "follow", "Mossy_Owl", null, at - 2000);
    expect((await h.bot("/api/bot/coinflip")).status).toBe(200);
    h.clock.advance(1000);
    await record("msg-2", "cheer", "Fernwick", 100, h.ctx.clock.now());
    await record("test:1", "cheer", "CuebotTester", 500, h.ctx.clock.now());
    await record("replay:1:x", "follow", "Mossy_Owl", null, h.ctx.clock.now());
    const page = (
      await call<{ items: Record<string, unknown>[]; cursor: string | null }>(
        h,
        "GET",
        "/api/dashboard/activity",
      )
    ).body.data;
    expect(page.items.map((i) => (i.kind === "alert" ? i.text : `!${i.command}`))).toEqual([
      "Fernwick cheered 100 bits!",
      "!coinflip",
      "Mossy_Owl just followed!",
    ]);
    expect(page.items[2]).toMatchObject({ kind: "alert", type: "follow", user: "Mossy_Owl", amount: null });
    expect(page.cursor).toBeNull();
  });
});

describe("the activity feed's pages", () => {
  test("alerts between command calls land on the page of their time: paging back shows each once, none skipped", async () => {
    h = await startBotHarness();
    const base = 1_700_000_000_000;
    // 60 command calls 10 s apart; an alert 5 s after every 7th of them.
    for (let n = 0; n < 60; n++) {
      h.ctx.events.record({
        accountId: h.account.id,
        at: base + n * 10_000,
        command: "dice",
        caller: `viewer${n}`,
        outcome: "ok",
        latencyMs: 1,
        test: false,
        refused: null,
      });
    }
    const alertTimes = Array.from({ length: 9 }, (_, i) => base + i * 7 * 10_000 + 5_000);
    for (const [i, at] of alertTimes.entries()) {
      await recordAlertEvent(h.ctx.db, {
        accountId: h.account.id,
        type: "follow",
        eventKey: `m${i}`,
        fields: { user: `follower${i}`, amount: null, months: null, tier: null, reward: null, message: null },
        test: false,
        at,
      });
    }
    type Page = {
      items: { kind: string; at: string; user?: string; caller?: string }[];
      cursor: string | null;
    };
    const first = (await call<Page>(h, "GET", "/api/dashboard/activity")).body.data;
    const second = (await call<Page>(h, "GET", `/api/dashboard/activity?before=${first.cursor}`)).body.data;
    expect(second.cursor).toBeNull();
    const all = [...first.items, ...second.items];
    const times = all.map((i) => Date.parse(i.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(all.filter((i) => i.kind === "command")).toHaveLength(60);
    expect(all.filter((i) => i.kind === "alert").map((i) => i.user)).toEqual(
      alertTimes.map((_, i) => `follower${i}`).reverse(),
    );
    // The first page ends at its oldest command call (viewer10): older alerts wait for the next page.
    expect(first.items.at(-1)).toMatchObject({ kind: "command", caller: "viewer10" });
  });
});

describe("security and /docs", () => {
  test("no session is 401, a foreign or missing Origin 403, and /docs lists every alerts route", async () => {
    h = await startBotHarness();
    await expectPanelSecurity(h, [
      { method: "GET", path: ALERTS },
      { method: "PUT", path: ALERTS, body: { enabled: true } },
      { method: "PUT", path: `${ALERTS}/types/cheer`, body: { volume: 10 } },
      { method: "GET", path: `${ALERTS}/assets` },
      { method: "POST", path: `${ALERTS}/assets?kind=image`, body: "x" },
      { method: "DELETE", path: `${ALERTS}/assets/1` },
      { method: "POST", path: `${ALERTS}/test`, body: { type: "cheer" } },
      { method: "GET", path: `${ALERTS}/history` },
      { method: "POST", path: `${ALERTS}/history/1/replay` },
      { method: "POST", path: `${ALERTS}/simulate`, body: { type: "raid" } },
    ]);
    expect(await readAlertChannel(h.ctx.db, h.account.id)).toBeNull();
    expect((await readAlertSettings(h.ctx.db, h.account.id)).cheer.volume).toBe(80);
    await expectDocumented(h, {
      [ALERTS]: ["get", "put"],
      [`${ALERTS}/types/{type}`]: ["put"],
      [`${ALERTS}/assets`]: ["get", "post"],
      [`${ALERTS}/assets/{id}`]: ["delete"],
      [`${ALERTS}/test`]: ["post"],
      [`${ALERTS}/history`]: ["get"],
      [`${ALERTS}/history/{id}/replay`]: ["post"],
      [`${ALERTS}/simulate`]: ["post"],
    });
  });
});
