import { afterEach, describe, expect, test } from "bun:test";
import type { ObsLive } from "../../../server/obs/live.ts";
import { startObs } from "../../../server/obs/live.ts";
import { startObsSimulator } from "../../../server/sim/obs/server.ts";
import { type BotHarness, startBotHarness } from "../../helpers/bot.ts";
import { explainObsSkip, haveObs, startRealObs } from "../../helpers/obs.ts";
import type { ObsViewJson } from "../../helpers/obs-view.ts";
import { startKickingObs } from "../obs/kicking-obs.ts";
import { call, expectDocumented, expectPanelSecurity, expectRefusal } from "./chat-bot-panel.ts";

/**
 * The dashboard's OBS connection (CONTRACT §6 "Actions"): PUT and GET /api/dashboard/obs against the
 * simulated OBS, each bad field named with nothing stored, the password sealed in the store and never
 * answered or exported, and the settings gone with the account.
 */

type ObsData = ObsViewJson;

const OBS = "/api/dashboard/obs";
const PASSWORD = "sim-password-7781";

let h: BotHarness;
let live: ObsLive | null = null;
const stops: (() => unknown)[] = [];
afterEach(async () => {
  await live?.close();
  live = null;
  for (const stop of stops.splice(0)) await stop();
  await h.stop();
});

async function setUp() {
  h = await startBotHarness();
  live = startObs(h.ctx);
  const sim = startObsSimulator({ password: PASSWORD });
  stops.push(() => sim.kill());
  return sim;
}

const get = async () => (await call<ObsData>(h, "GET", OBS)).body.data;
const put = (body: unknown) => call<ObsData>(h, "PUT", OBS, body);

async function until(wanted: (data: ObsData) => boolean, withinMs: number): Promise<ObsData> {
  const started = Date.now();
  for (;;) {
    const data = await get();
    if (wanted(data)) return data;
    if (Date.now() - started > withinMs)
      throw new Error(`not within ${withinMs} ms: ${JSON.stringify(data)}`);
    await Bun.sleep(100);
  }
}

const storedRows = async () =>
  (await h.sql("SELECT password_sealed, url, via FROM obs_settings")) as {
    password_sealed: string | null;
    url: string;
    via: string;
  }[];

describe("PUT and GET /api/dashboard/obs", () => {
  test("off until saved; then connected within 10 s with OBS's version, scenes and sources", async () => {
    const sim = await setUp();
    expect(await get()).toEqual({
      enabled: false,
      url: "ws://127.0.0.1:4455",
      via: "server",
      state: "off",
      since: null,
      reason: null,
      obsVersion: null,
      scenes: [],
      sources: [],
    });
    const saved = await put({ enabled: true, url: sim.url, password: PASSWORD });
    expect(saved.status).toBe(200);
    expect(["connecting", "connected"]).toContain(saved.body.data.state);
    const data = await until((d) => d.state === "connected", 10_000);
    expect(data.obsVersion).toBe("29.0.2");
    expect(data.scenes.length).toBeGreaterThan(0);
    expect(data.sources.length).toBeGreaterThan(0);
    expect(JSON.stringify(data)).not.toContain(PASSWORD);
    expect(data.via).toBe("server");
  });

  test('the password is sealed in the store, never in GET or the export; omitted keeps it, "" clears it', async () => {
    const sim = await setUp();
    await put({ enabled: true, url: sim.url, password: PASSWORD });
    const [row] = await storedRows();
    expect(row!.password_sealed).not.toBeNull();
    expect(row!.password_sealed).not.toContain(PASSWORD);
    const exported = await (await h.panel("/api/dashboard/export")).text();
    expect(exported).not.toContain(PASSWORD);
    expect((JSON.parse(exported) as { obs: { passwordSet: boolean } }).obs.passwordSet).toBe(true);
    const passwordSet = async () =>
      ((await (await h.panel("/api/dashboard/obs/password")).json()) as { data: { set: boolean } }).data.set;
    expect(await passwordSet()).toBe(true);
    await put({ enabled: true });
    const kept = await until((d) => d.state === "connected", 10_000);
    expect([kept.enabled, await passwordSet()]).toEqual([true, true]);
    await put({ password: "" });
    expect((await storedRows())[0]!.password_sealed).toBeNull();
    const refused = await until((d) => d.state === "auth_failed", 10_000);
    expect(refused.reason).toContain("password");
    expect(await passwordSet()).toBe(false);
  });

  test("turned off: state off at once; via overlay: connecting, saying the overlay page connects", async () => {
    const sim = await setUp();
    await put({ enabled: true, url: sim.url, password: PASSWORD });
    await until((d) => d.state === "connected", 10_000);
    expect((await put({ enabled: false })).body.data.state).toBe("off");
    const overlay = (await put({ enabled: true, via: "overlay" })).body.data;
    expect(overlay.state).toBe("connecting");
    expect(overlay.reason).toContain("overlay page");
    await Bun.sleep(300);
    expect(sim.identifiedClients()).toBe(0);
  });

  test("each bad field is named, 400 bad_request, nothing stored", async () => {
    await setUp();
    const bad: [unknown, string | undefined][] = [
      [{ url: "http://127.0.0.1:4455" }, "url"],
      [{ url: "127.0.0.1:4455" }, "url"],
      [{ url: "ws://" }, "url"],
      [{ url: 4455 }, "url"],
      [{ url: `ws://${"a".repeat(3000)}.example` }, "url"],
      [{ via: "phone" }, "via"],
      [{ via: null }, "via"],
      [{ enabled: "yes" }, "enabled"],
      [{ password: 1234 }, "password"],
      [{ password: "x".repeat(257) }, "password"],
      [{ enabled: true, url: "ws://127.0.0.1:4455", host: "x" }, "host"],
      [[], undefined],
      ["ws://127.0.0.1:4455", undefined],
    ];
    for (const [body, field] of bad) {
      const reply = await put(body);
      expectRefusal(reply, 400, "bad_request", field);
    }
    expect(await storedRows()).toEqual([]);
    expect((await get()).state).toBe("off");
    await put({ enabled: false, url: "ws://10.0.0.5:4455", password: "kept", via: "overlay" });
    const before = await storedRows();
    expectRefusal(
      await put({ enabled: true, url: "ws://10.0.0.6:4455", via: "bus" }),
      400,
      "bad_request",
      "via",
    );
    expectRefusal(await put({ enabled: true, password: "new", url: "ftp://x" }), 400, "bad_request", "url");
    expect(await storedRows()).toEqual(before);
    expect((await get()).enabled).toBe(false);
  });

  test("odd passwords and addresses are kept exactly: Unicode, quotes, an IPv6 host", async () => {
    const sim = await setUp();
    const odd = "pässwörd \"'; DROP TABLE obs_settings; -- 🙂\u0000";
    const saved = await put({ enabled: false, url: "ws://[::1]:4455/", password: odd, via: "server" });
    expect(saved.status).toBe(200);
    expect(saved.body.data.url).toBe("ws://[::1]:4455/");
    sim.setPassword(odd);
    await put({ enabled: true, url: sim.url });
    expect((await until((d) => d.state === "connected", 10_000)).obsVersion).toBe("29.0.2");
  });

  test("kicked by OBS: error saying so, no reconnect; saving the settings again connects", async () => {
    h = await startBotHarness();
    live = startObs(h.ctx);
    const obs = startKickingObs();
    stops.push(() => obs.stop());
    await put({ enabled: true, url: obs.url, password: "" });
    await until((d) => d.state === "connected", 10_000);
    obs.kick();
    expect((await until((d) => d.state === "error", 5_000)).reason).toContain("kicked");
    await Bun.sleep(1_000);
    expect(obs.upgrades()).toBe(1);
    await put({ enabled: true });
    await until((d) => d.state === "connected", 10_000);
    expect(obs.upgrades()).toBe(2);
  });

  test("wss:// is accepted, and the account's deletion removes the settings", async () => {
    await setUp();
    expect((await put({ enabled: false, url: "wss://obs.example:443/socket", password: "p" })).status).toBe(
      200,
    );
    expect((await get()).url).toBe("wss://obs.example:443/socket");
    expect((await h.panel("/api/dashboard/account", { method: "DELETE" })).status).toBe(200);
    expect(await storedRows()).toEqual([]);
  });

  test("session and Origin required, documented on /docs", async () => {
    await setUp();
    await expectPanelSecurity(h, [
      { method: "GET", path: OBS },
      { method: "PUT", path: OBS, body: { enabled: false } },
      { method: "GET", path: "/api/dashboard/demo/obs" },
    ]);
    await expectDocumented(h, { [OBS]: ["get", "put"], "/api/dashboard/demo/obs": ["get"] });
  });

  test("the simulated OBS's program exists in demo mode only: 404 saying so", async () => {
    await setUp();
    const outside = await call(h, "GET", "/api/dashboard/demo/obs");
    expect(outside.status).toBe(404);
    expect(JSON.stringify(outside.body)).toContain("demo mode only");
  });
});

explainObsSkip();

describe.skipIf(!haveObs)("against a real OBS 29.0.2", () => {
  test("connected with its version and scenes; a wrong password auth_failed; killed, unreachable, back, connected", async () => {
    h = await startBotHarness();
    live = startObs(h.ctx);
    const obs = await startRealObs();
    stops.push(() => obs.stop());
    await put({ enabled: true, url: obs.url, password: obs.password });
    const data = await until((d) => d.state === "connected", 10_000);
    expect(data.obsVersion).toBe("29.0.2");
    expect(data.scenes).toContain("Scene");
    await put({ password: "wrong-password" });
    expect((await until((d) => d.state === "auth_failed", 10_000)).reason).toContain("Wrong password");
    await put({ password: obs.password });
    await until((d) => d.state === "connected", 10_000);
    await obs.kill();
    const gone = await until((d) => d.state === "unreachable", 15_000);
    expect(gone.reason).toContain("OBS is not running or obs-websocket is off");
    expect(gone.scenes).toEqual([]);
    await obs.restart();
    await until((d) => d.state === "connected", 10_000);
  }, 90_000);
});
