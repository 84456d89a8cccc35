/**
 * CONTRACT §6 "Actions", sentence by sentence, as an outsider checks it: the dashboard's routes with a
 * session, the Twitch simulator's EventSub emit and chat, a real OBS 29.0.2 (the simulator where OBS is
 * not installed) read back over obs-websocket. SQLite, or PostgreSQL with CUEBOT_TEST_DATABASE=postgres.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Socket, TCPSocketListener } from "bun";
import type { Browser, Page } from "playwright-core";
import { revealCredential } from "../../db/credentials.ts";
import { createSession, SESSION_COOKIE } from "../../server/core/sessions.ts";
import { listen, type RunningServer } from "../../server/listen.ts";
import { SIM_IDS } from "../../server/sim/twitch/world.ts";
import { type ActionsHarness, startActionsHarness, startTestObs, type TestObs } from "../helpers/actions.ts";
import { type AlertsHarness, recordOverlay, startAlertsHarness } from "../helpers/alerts.ts";
import { haveChromium, launchChromium } from "../helpers/browser.ts";
import { countChatLines, waitFor } from "../helpers/chat.ts";
import { badge, MODERATOR } from "../helpers/custom-chat.ts";
import type { ObsViewJson } from "../helpers/obs-view.ts";

type ObsData = ObsViewJson;
type Json = { status?: number; data?: Record<string, unknown>; error?: { code: string; message: string } };

let obs: TestObs;
beforeAll(async () => {
  obs = await startTestObs();
}, 60_000);
afterAll(async () => {
  await obs.stop();
});

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
const portOf = (url: string) => Number(new URL(url).port);

/** A dashboard client of a harness: the streamer's session and our Origin. */
async function dashboard(h: AlertsHarness) {
  const session = await createSession(h.ctx, h.account.id, "test");
  const headers = { cookie: `${SESSION_COOKIE}=${session.token}`, origin: new URL(h.ctx.publicUrl).origin };
  return async (path: string, method = "GET", payload?: unknown) => {
    const res = await h.request(path, {
      method,
      body:
        payload === undefined ? undefined : typeof payload === "string" ? payload : JSON.stringify(payload),
      headers: { ...headers, ...(payload === undefined ? {} : { "content-type": "application/json" }) },
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
}
type Dashboard = Awaited<ReturnType<typeof dashboard>>;

/**
 * A TCP relay in front of OBS that counts the connections made through it; `freeze` drops every byte
 * both ways without closing anything (a half-open socket, as a sleeping laptop or a dead Wi-Fi leaves).
 */
function countingProxy(target: number): {
  url: string;
  connections: () => number;
  freeze(frozen: boolean): void;
  stop(): void;
} {
  let connections = 0;
  let frozen = false;
  type Side = { upstream: Socket<unknown> | null; pending: Uint8Array[] };
  const server: TCPSocketListener<Side> = Bun.listen<Side>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open(client) {
        connections++;
        client.data = { upstream: null, pending: [] };
        void Bun.connect({
          hostname: "127.0.0.1",
          port: target,
          socket: {
            open(up) {
              client.data.upstream = up;
              for (const chunk of client.data.pending.splice(0)) up.write(chunk);
            },
            data: (_up, chunk) => void (frozen ? 0 : client.write(chunk)),
            close: () => void client.end(),
            error: () => void client.end(),
          },
        }).catch(() => void client.end());
      },
      data(client, chunk) {
        if (frozen) return;
        if (client.data.upstream) client.data.upstream.write(chunk);
        else client.data.pending.push(new Uint8Array(chunk));
      },
      close: (client) => void client.data.upstream?.end(),
    },
  });
  return {
    url: `ws://127.0.0.1:${server.port}`,
    connections: () => connections,
    freeze: (value) => {
      frozen = value;
    },
    stop: () => server.stop(true),
  };
}

describe("GET and PUT /api/dashboard/obs", () => {
  let h: AlertsHarness;
  let api: Dashboard;
  const view = async () => (await api("/api/dashboard/obs")).body.data as unknown as ObsData;
  /** Milliseconds until GET shows `wanted` (polled as the dashboard polls), or throws after `ms`. */
  async function until(wanted: (d: ObsData) => boolean, ms: number): Promise<number> {
    const started = Date.now();
    for (;;) {
      const data = await view();
      if (wanted(data)) return Date.now() - started;
      if (Date.now() - started > ms) throw new Error(`not within ${ms} ms: ${JSON.stringify(data)}`);
      await Bun.sleep(100);
    }
  }

  beforeAll(async () => {
    h = await startAlertsHarness();
    await h.grant({ chat: true });
    h.serve();
    api = await dashboard(h);
  }, 60_000);
  afterAll(async () => {
    await h.stop();
  });

  test("before any PUT: off, the default url, via server, nothing seen", async () => {
    expect(await view()).toEqual({
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
  });

  test("each bad field of the PUT → 400 bad_request naming it, nothing changed", async () => {
    const before = await view();
    const bad: [unknown, string][] = [
      [{ enabled: true, url: "http://127.0.0.1:4455" }, "url"],
      [{ url: "127.0.0.1:4455" }, "url"],
      [{ url: "ws://" }, "url"],
      [{ url: "ws://a b:4455" }, "url"],
      [{ via: "cloud" }, "via"],
      [{ via: "Server" }, "via"],
      [{ enabled: "yes" }, "enabled"],
      [{ enabled: 1 }, "enabled"],
      [{ password: 1234 }, "password"],
      [{ password: "x".repeat(10_000) }, "password"],
      [{ enabled: true, url: obs.url, port: 4455 }, "port"],
      [{ enabled: true, url: obs.url, via: "overlay", password: obs.password, extra: null }, "extra"],
    ];
    for (const [body, field] of bad) {
      const res = await api("/api/dashboard/obs", "PUT", body);
      expect({ body, status: res.status, code: res.body.error?.code }).toEqual({
        body,
        status: 400,
        code: "bad_request",
      });
      expect(res.body.error?.message).toContain(field);
    }
    for (const body of ["[]", '"ws://x"', "null", "{"]) {
      expect((await api("/api/dashboard/obs", "PUT", body)).status).toBe(400);
    }
    expect(await view()).toEqual(before);
  });

  test("PUT: 200 without the password; connected within 10 s with OBS's version, scenes and sources", async () => {
    const put = await api("/api/dashboard/obs", "PUT", {
      enabled: true,
      url: obs.url,
      password: obs.password,
      via: "server",
    });
    expect(put.status).toBe(200);
    expect(JSON.stringify(put.body)).not.toContain(obs.password);
    expect(await until((d) => d.state === "connected", 10_000)).toBeLessThan(10_000);
    const seen = await view();
    expect(seen).toMatchObject({ enabled: true, url: obs.url, via: "server", state: "connected" });
    expect(seen.since).toMatch(ISO);
    expect(seen.obsVersion).toBe("29.0.2");
    expect(Array.isArray(seen.scenes) && seen.scenes.length > 0).toBe(true);
    expect(seen.scenes.every((s) => typeof s === "string")).toBe(true);
    expect(seen.sources.every((s) => typeof s === "string")).toBe(true);
    expect(JSON.stringify(seen)).not.toContain(obs.password);
  }, 30_000);

  test("a PUT with fields left out keeps them (the password too: still connected)", async () => {
    expect((await api("/api/dashboard/obs", "PUT", { via: "server" })).status).toBe(200);
    expect(await until((d) => d.state === "connected", 10_000)).toBeLessThan(10_000);
    expect((await view()).url).toBe(obs.url);
  }, 30_000);

  test("a wrong password: auth_failed within 10 s, with a reason; retried at most once a minute", async () => {
    const proxy = countingProxy(portOf(obs.url));
    try {
      await api("/api/dashboard/obs", "PUT", {
        enabled: true,
        url: proxy.url,
        password: "wrong",
        via: "server",
      });
      expect(await until((d) => d.state === "auth_failed", 10_000)).toBeLessThan(10_000);
      const failed = await view();
      expect(failed.reason).toEqual(expect.any(String));
      expect(failed.obsVersion).toBeNull();
      expect(failed.scenes).toEqual([]);
      const tried = proxy.connections();
      expect(tried).toBeGreaterThanOrEqual(1);
      await Bun.sleep(15_000);
      expect(proxy.connections() - tried).toBe(0);
      expect((await view()).state).toBe("auth_failed");
    } finally {
      proxy.stop();
    }
  }, 40_000);

  test("nothing listening at the url: unreachable within 10 s", async () => {
    const closed = countingProxy(1);
    closed.stop();
    await api("/api/dashboard/obs", "PUT", { enabled: true, url: closed.url, password: "x", via: "server" });
    expect(await until((d) => d.state === "unreachable", 10_000)).toBeLessThan(10_000);
    expect((await view()).reason).toEqual(expect.any(String));
  }, 30_000);

  test("turned off: state off, nothing seen, the url kept", async () => {
    await api("/api/dashboard/obs", "PUT", { enabled: true, url: obs.url, password: obs.password });
    await until((d) => d.state === "connected", 10_000);
    await api("/api/dashboard/obs", "PUT", { enabled: false });
    const off = await view();
    expect(off).toMatchObject({ enabled: false, url: obs.url, state: "off", obsVersion: null, scenes: [] });
    expect(off.sources).toEqual([]);
  }, 30_000);

  // Failed before the fix: the PUT's answer showed the old connection (connected, its version and scenes)
  // beside the new url; obsView now reads the held connection only when it is to the stored settings.
  test("the PUT's answer never shows the new url as connected with the old OBS's version and scenes", async () => {
    await api("/api/dashboard/obs", "PUT", { enabled: true, url: obs.url, password: obs.password });
    await until((d) => d.state === "connected", 10_000);
    const closed = countingProxy(1);
    closed.stop();
    const put = await api("/api/dashboard/obs", "PUT", { url: closed.url });
    const answered = put.body.data as unknown as ObsData;
    expect(answered.url).toBe(closed.url);
    expect(answered.state).not.toBe("connected");
    expect(answered.obsVersion).toBeNull();
  }, 30_000);

  test("a half-open connection (nothing comes back, nothing closes): noticed within 15 s, connected again within 10 s", async () => {
    const proxy = countingProxy(portOf(obs.url));
    try {
      await api("/api/dashboard/obs", "PUT", { enabled: true, url: proxy.url, password: obs.password });
      await until((d) => d.state === "connected", 10_000);
      proxy.freeze(true);
      expect(await until((d) => d.state !== "connected", 16_000)).toBeLessThanOrEqual(15_000);
      proxy.freeze(false);
      expect(await until((d) => d.state === "connected", 10_000)).toBeLessThan(10_000);
    } finally {
      proxy.stop();
    }
  }, 60_000);

  test("OBS killed: noticed within 15 s; back: connected within 10 s of its Hello", async () => {
    await api("/api/dashboard/obs", "PUT", { enabled: true, url: obs.url, password: obs.password });
    await until((d) => d.state === "connected", 10_000);
    await obs.kill();
    expect(await until((d) => d.state !== "connected", 15_000)).toBeLessThan(15_000);
    const lost = await view();
    expect(lost.obsVersion).toBeNull();
    expect(lost.reason).toEqual(expect.any(String));
    await obs.restart();
    expect(await until((d) => d.state === "connected", 10_000)).toBeLessThan(10_000);
    expect((await view()).obsVersion).toBe("29.0.2");
  }, 90_000);
});

describe("actions over the dashboard", () => {
  let t: ActionsHarness;
  let api: Dashboard;
  let unique = 0;
  const name = () => `contract ${++unique}`;
  const say = (text: string, user = "viewer_anna", badges = badge("none")) =>
    t.sim.chat.say({ channel: "cuebotdemo", user, text, badges });
  const post = (body: Record<string, unknown>) =>
    api("/api/dashboard/actions", "POST", { name: name(), ...body });
  const list = async () =>
    ((await api("/api/dashboard/actions")).body.data as { items: { id: number; name: string }[] }).items;
  const textOf = async (source: string) =>
    (await t.reader.call("GetInputSettings", { inputName: source })).inputSettings.text;
  const idOf = (res: { body: Json }) => res.body.data?.id as number;
  const sent = () => t.sim.chat.sent().filter((s) => s.isSent);

  beforeAll(async () => {
    t = await startActionsHarness(obs);
    api = await dashboard(t);
  }, 60_000);
  afterAll(async () => {
    await t.stop();
  });

  test("POST and PUT answer 200 with id and lastRun null; lastRun {at, ok, error} after a run", async () => {
    const { scene } = await t.sceneWithText();
    const body = {
      name: "Scene switch",
      enabled: true,
      cooldownSeconds: 0,
      trigger: { type: "button" },
      steps: [{ type: "obs.scene", scene }],
    };
    const added = await api("/api/dashboard/actions", "POST", body);
    expect(added.status).toBe(200);
    expect(added.body.data).toEqual({ id: expect.any(Number), ...body, lastRun: null });
    const id = idOf(added);
    const replaced = await api(`/api/dashboard/actions/${id}`, "PUT", { ...body, name: "Renamed" });
    expect(replaced.status).toBe(200);
    expect(replaced.body.data).toEqual({ id, ...body, name: "Renamed", lastRun: null });
    expect((await t.run(id)).body.data?.ok).toBe(true);
    const [after] = (await list()).filter((a) => a.id === id) as unknown as { lastRun: unknown }[];
    expect(after?.lastRun).toEqual({ at: expect.stringMatching(ISO), ok: true, error: null });
    await api(`/api/dashboard/actions/${id}`, "PUT", {
      ...body,
      steps: [{ type: "obs.scene", scene: "Nope!" }],
    });
    await t.run(id);
    const [failed] = (await list()).filter((a) => a.id === id) as unknown as { lastRun: unknown }[];
    expect(failed?.lastRun).toEqual({
      at: expect.stringMatching(ISO),
      ok: false,
      error: expect.stringContaining("Nope!"),
    });
    const deleted = await api(`/api/dashboard/actions/${id}`, "DELETE");
    expect(deleted).toEqual({ status: 200, body: { status: 200, data: { id, deleted: true } } });
  }, 30_000);

  test("scenes and sources are not checked when saved (OBS may be off)", async () => {
    const res = await post({
      trigger: { type: "button" },
      steps: [
        { type: "obs.scene", scene: "Scene OBS never had" },
        { type: "obs.source", scene: "Nowhere", source: "Nothing", visible: true, seconds: 5 },
      ],
    });
    expect(res.status).toBe(200);
  });

  test("each bad field of POST and PUT → 400 bad_request naming it, nothing stored", async () => {
    const good = {
      name: "Good",
      enabled: true,
      cooldownSeconds: 0,
      trigger: { type: "button" },
      steps: [{ type: "wait", seconds: 1 }],
    };
    const stored = await api("/api/dashboard/actions", "POST", good);
    const id = idOf(stored);
    const bad: [Record<string, unknown>, string][] = [
      [{ name: undefined }, "name"],
      [{ name: "" }, "name"],
      [{ name: "x".repeat(51) }, "name"],
      [{ name: "two\nlines" }, "name"],
      [{ enabled: "yes" }, "enabled"],
      [{ cooldownSeconds: -1 }, "cooldownSeconds"],
      [{ cooldownSeconds: 1.5 }, "cooldownSeconds"],
      [{ cooldownSeconds: "10" }, "cooldownSeconds"],
      [{ colour: "red" }, "colour"],
      [{ trigger: undefined }, "trigger"],
      [{ trigger: { type: "timer" } }, "trigger.type"],
      [{ trigger: { type: "command", command: "brb", level: "god" } }, "trigger.level"],
      [{ trigger: { type: "command", command: "" } }, "trigger.command"],
      [{ trigger: { type: "command", command: "b r b" } }, "trigger.command"],
      [{ trigger: { type: "alert", kind: "host" } }, "trigger.kind"],
      [{ trigger: { type: "alert", kind: "subscribe" } }, "trigger.kind"],
      [{ trigger: { type: "alert", kind: "cheer", min: -1 } }, "trigger.min"],
      [{ trigger: { type: "alert", kind: "cheer", min: "100" } }, "trigger.min"],
      [{ trigger: { type: "stream", state: "live" } }, "trigger.state"],
      [{ trigger: { type: "button", command: "x" } }, "trigger.command"],
      [{ steps: [] }, "steps"],
      [{ steps: "obs.scene" }, "steps"],
      [{ steps: Array.from({ length: 21 }, () => ({ type: "wait", seconds: 1 })) }, "steps"],
      [{ steps: [{ type: "obs.filter" }] }, "steps[0].type"],
      [
        {
          steps: [
            { type: "wait", seconds: 1 },
            { type: "wait", seconds: 61 },
          ],
        },
        "steps[1].seconds",
      ],
      [{ steps: [{ type: "wait", seconds: 0 }] }, "steps[0].seconds"],
      [{ steps: [{ type: "obs.scene", scene: "" }] }, "steps[0].scene"],
      [{ steps: [{ type: "obs.scene" }] }, "steps[0].scene"],
      [{ steps: [{ type: "obs.source", scene: "S", source: "T" }] }, "steps[0].visible"],
      [
        { steps: [{ type: "obs.source", scene: "S", source: "T", visible: true, seconds: -2 }] },
        "steps[0].seconds",
      ],
      [{ steps: [{ type: "obs.text", source: "T" }] }, "steps[0].text"],
      [{ steps: [{ type: "obs.media", source: "M", action: "play" }] }, "steps[0].action"],
      [{ steps: [{ type: "chat", text: "" }] }, "steps[0].text"],
      [{ steps: [{ type: "chat", text: "x".repeat(501) }] }, "steps[0].text"],
      [{ steps: [{ type: "obs.scene", scene: "S", extra: 1 }] }, "steps[0].extra"],
    ];
    const before = await list();
    for (const [change, field] of bad) {
      const body = { ...good, ...change };
      for (const [method, path] of [
        ["POST", "/api/dashboard/actions"],
        ["PUT", `/api/dashboard/actions/${id}`],
      ] as const) {
        const res = await api(path, method, body);
        expect({ method, change, status: res.status, code: res.body.error?.code }).toEqual({
          method,
          change,
          status: 400,
          code: "bad_request",
        });
        expect(res.body.error?.message).toContain(`"${field}"`);
      }
    }
    for (const raw of ["[]", "null", '"x"', "{"]) {
      expect((await api("/api/dashboard/actions", "POST", raw)).status).toBe(400);
    }
    expect(await list()).toEqual(before);
  }, 60_000);

  test("a command trigger on a built-in's name, an alias (on or off) or a custom command → 400 naming it", async () => {
    const custom = await api("/api/dashboard/custom-commands", "POST", { name: "!discord", response: "hi" });
    expect(custom.status).toBe(200);
    expect((await api("/api/dashboard/commands/dice", "PUT", { enabled: false })).status).toBe(200);
    const before = await list();
    for (const command of [
      "followage",
      "dice",
      "roll",
      "8ball",
      "discord",
      "DISCORD",
      "addcom",
      "commands",
    ]) {
      const res = await post({
        trigger: { type: "command", command },
        steps: [{ type: "wait", seconds: 1 }],
      });
      expect({ command, status: res.status, code: res.body.error?.code }).toEqual({
        command,
        status: 400,
        code: "bad_request",
      });
      expect(res.body.error?.message).toContain("trigger.command");
    }
    expect(await list()).toEqual(before);
  }, 30_000);

  test("!addcom of an action's name is refused; the dashboard refuses it too", async () => {
    const res = await post({
      trigger: { type: "command", command: "lights" },
      steps: [{ type: "wait", seconds: 1 }],
    });
    expect(res.status).toBe(200);
    const asked = say("!addcom !lights everything off", "mod_mia", MODERATOR);
    const reply = await t.replyTo(asked, 10_000);
    expect(reply?.text).toEqual(expect.any(String));
    const customs = (await api("/api/dashboard/custom-commands")).body.data as { items: { name: string }[] };
    expect(customs.items.map((c) => c.name)).not.toContain("lights");
    const dash = await api("/api/dashboard/custom-commands", "POST", { name: "!lights", response: "x" });
    expect(dash.status).toBeGreaterThanOrEqual(400);
  }, 30_000);

  test("a command trigger with a level: a lower chatter's line runs nothing and gets no reply; at the level it runs within 1 s", async () => {
    const { scene, text } = await t.sceneWithText();
    const id = idOf(
      await post({
        trigger: { type: "command", command: "vipscene", level: "twitch_vip" },
        steps: [
          { type: "obs.scene", scene },
          { type: "obs.text", source: text, text: "{user} said {message}" },
        ],
      }),
    );
    const start = await t.scene();
    const quiet = sent().length;
    const heard = countChatLines(t);
    say("!vipscene now");
    say("!vipscene now", "subdave", badge("subscriber"));
    for (let i = 0; i < 200; i++) say(i % 2 ? "!vipscene" : "!VIPSCENE \u0301\u0301");
    // The flood read to its end first: the VIP's line below is timed, not the backlog before it.
    expect(await waitFor(() => heard() >= 202, 20_000)).toBe(true);
    await Bun.sleep(500);
    expect(await t.scene()).toBe(start);
    expect(await t.runs(id)).toEqual([]);
    expect(sent().length).toBe(quiet);
    const asked = performance.now();
    say("!VipScene lights on", "vipcarla", badge("vip"));
    expect(await waitFor(async () => (await textOf(text)) === "VipCarla said lights on", 10_000)).toBe(true);
    expect(performance.now() - asked).toBeLessThan(1000);
    expect(await t.scene()).toBe(scene);
    expect(sent().length).toBe(quiet);
  }, 30_000);

  test("alert triggers: amount ≥ min (cheer, gift, resub, raid); min means nothing for follows; a reward title must match", async () => {
    const { text } = await t.sceneWithText();
    const step = (label: string) => [
      { type: "obs.text", source: text, text: `${label} {user} {amount} {reward} {message}` },
    ];
    const ids = {
      cheer: idOf(await post({ trigger: { type: "alert", kind: "cheer", min: 100 }, steps: step("cheer") })),
      gift: idOf(await post({ trigger: { type: "alert", kind: "gift", min: 5 }, steps: step("gift") })),
      resub: idOf(await post({ trigger: { type: "alert", kind: "resub", min: 12 }, steps: step("resub") })),
      follow: idOf(
        await post({ trigger: { type: "alert", kind: "follow", min: 50 }, steps: step("follow") }),
      ),
      redemption: idOf(
        await post({
          trigger: { type: "alert", kind: "redemption", min: 500, reward: "Hydrate" },
          steps: step("redeem"),
        }),
      ),
    };
    const runs = async (id: number) => (await t.runs(id)).length;
    const becomes = async (wanted: string) => {
      await waitFor(async () => (await textOf(text)) === wanted, 3000);
      return await textOf(text);
    };

    await t.emit("cheer", { bits: 99, message: "small" });
    await t.emit("gift", { total: 4 });
    await t.emit("resub", { cumulative_months: 11 });
    await Bun.sleep(800);
    expect([await runs(ids.cheer), await runs(ids.gift), await runs(ids.resub)]).toEqual([0, 0, 0]);

    await t.emit("cheer", { bits: 100, message: "Cheer100 big" });
    expect(await becomes("cheer ModBob 100  Cheer100 big")).toBe("cheer ModBob 100  Cheer100 big");
    await t.emit("gift", { total: 5 });
    expect(await becomes("gift VipCarla 5  ")).toBe("gift VipCarla 5  ");
    await t.emit("resub", { cumulative_months: 12, message: "a year" });
    expect(await becomes("resub SubDave 12  a year")).toBe("resub SubDave 12  a year");
    await t.emit("follow");
    expect(await becomes("follow Viewer_Anna   ")).toBe("follow Viewer_Anna   ");
    const reward = { id: "r9", title: "Hydrate", cost: 100, prompt: "" };
    await t.emit("redemption", { reward: { ...reward, title: "Stretch" }, user_input: "no" });
    await Bun.sleep(500);
    expect(await runs(ids.redemption)).toBe(0);
    await t.emit("redemption", { reward, user_input: "drink!" });
    expect(await becomes("redeem Lurker_Eve  Hydrate drink!")).toBe("redeem Lurker_Eve  Hydrate drink!");
    expect([
      await runs(ids.cheer),
      await runs(ids.gift),
      await runs(ids.resub),
      await runs(ids.follow),
    ]).toEqual([1, 1, 1, 1]);
    for (const id of Object.values(ids)) await api(`/api/dashboard/actions/${id}`, "DELETE");
  }, 60_000);

  test("a raid starts its action within 1 s of the event, once per event", async () => {
    const { scene } = await t.sceneWithText();
    const id = idOf(
      await post({
        trigger: { type: "alert", kind: "raid", min: 10 },
        steps: [{ type: "obs.scene", scene }],
      }),
    );
    const started = performance.now();
    await t.emit("raid", { viewers: 10 });
    expect(await waitFor(async () => (await t.scene()) === scene, 10_000)).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
    await Bun.sleep(500);
    expect(await t.runs(id)).toHaveLength(1);
    await api(`/api/dashboard/actions/${id}`, "DELETE");
  }, 30_000);

  test("stream online and offline each run their action", async () => {
    const on = await t.sceneWithText();
    const off = await t.sceneWithText();
    const up = idOf(
      await post({
        trigger: { type: "stream", state: "online" },
        steps: [{ type: "obs.scene", scene: on.scene }],
      }),
    );
    const down = idOf(
      await post({
        trigger: { type: "stream", state: "offline" },
        steps: [{ type: "obs.scene", scene: off.scene }],
      }),
    );
    await t.emit("online");
    expect(await waitFor(async () => (await t.scene()) === on.scene, 10_000)).toBe(true);
    await t.emit("offline");
    expect(await waitFor(async () => (await t.scene()) === off.scene, 10_000)).toBe(true);
    // A run is recorded once its last step has run, a moment after OBS has it.
    const logged = async () => [(await t.runs(up)).length, (await t.runs(down)).length].join();
    expect(await waitFor(async () => (await logged()) === "1,1", 10_000)).toBe(true);
  }, 30_000);

  test("the run route lists the steps that ran, a failed one last naming the scene or source", async () => {
    const { scene, text } = await t.sceneWithText();
    const run = async (steps: unknown[]) => t.run(idOf(await post({ trigger: { type: "button" }, steps })));
    expect(
      (
        await run([
          { type: "obs.scene", scene },
          { type: "obs.scene", scene: "Ghost scene" },
          { type: "wait", seconds: 1 },
        ])
      ).body,
    ).toEqual({
      status: 200,
      data: {
        ok: false,
        steps: [
          { type: "obs.scene", ok: true, error: null },
          { type: "obs.scene", ok: false, error: expect.stringContaining("Ghost scene") },
        ],
      },
    } as never);
    const missing = await run([{ type: "obs.text", source: "Ghost text", text: "x" }]);
    expect(missing.body.data?.steps).toEqual([
      { type: "obs.text", ok: false, error: expect.stringContaining("Ghost text") },
    ]);
    const notIn = await run([{ type: "obs.source", scene, source: "Ghost source", visible: true }]);
    expect(notIn.body.data?.steps[0]?.error).toContain("Ghost source");
    const media = await run([{ type: "obs.media", source: "Ghost media", action: "restart" }]);
    expect(media.body.data?.steps[0]?.error).toContain("Ghost media");
    const good = await run([
      { type: "obs.text", source: text, text: "{user}" },
      { type: "wait", seconds: 0.1 },
    ]);
    expect(good.body.data).toEqual({
      ok: true,
      steps: [
        { type: "obs.text", ok: true, error: null },
        { type: "wait", ok: true, error: null },
      ],
    });
    expect(await textOf(text)).toBe("CuebotDemo");
  }, 30_000);

  test("409 busy during a run and during its cooldown, running nothing; a trigger then does nothing", async () => {
    const { scene } = await t.sceneWithText();
    const id = idOf(
      await post({
        cooldownSeconds: 2,
        trigger: { type: "command", command: "busytest", level: "everyone" },
        steps: [
          { type: "wait", seconds: 1 },
          { type: "obs.scene", scene },
        ],
      }),
    );
    const first = t.run(id);
    await Bun.sleep(200);
    const during = await t.run(id);
    expect(during.status).toBe(409);
    expect(during.body.error?.code).toBe("busy");
    say("!busytest");
    expect((await first).body.data?.ok).toBe(true);
    await t.reader.call("SetCurrentProgramScene", { sceneName: (await t.sceneWithText()).scene });
    const cooling = await t.run(id);
    expect(cooling.status).toBe(409);
    expect(cooling.body.error?.code).toBe("busy");
    say("!busytest");
    await Bun.sleep(1200);
    expect(await t.scene()).not.toBe(scene);
    expect(await t.runs(id)).toHaveLength(1);
    await Bun.sleep(1000);
    expect((await t.run(id)).status).toBe(200);
    expect(await t.runs(id)).toHaveLength(2);
  }, 30_000);

  test("a timed source answers at once and goes back after its seconds", async () => {
    const { scene, text } = await t.sceneWithText();
    const id = idOf(
      await post({
        trigger: { type: "button" },
        steps: [{ type: "obs.source", scene, source: text, visible: false, seconds: 2 }],
      }),
    );
    const shown = await t.shownIn(scene, text);
    const asked = performance.now();
    const reply = await t.run(id);
    expect(performance.now() - asked).toBeLessThan(1500);
    expect(reply.body.data).toEqual({ ok: true, steps: [{ type: "obs.source", ok: true, error: null }] });
    expect(await shown()).toBe(false);
    expect(await waitFor(shown, 4000)).toBe(true);
    expect(performance.now() - asked).toBeGreaterThanOrEqual(2000);
  }, 30_000);

  test("the chat step: one line, not a reply, never leading with / . ! \\ (invisible characters or not); placeholders filled", async () => {
    const id = idOf(
      await post({
        trigger: { type: "command", command: "echo" },
        steps: [{ type: "chat", text: "{message}" }],
      }),
    );
    const button = idOf(
      await post({ trigger: { type: "button" }, steps: [{ type: "chat", text: "hi {user}!" }] }),
    );
    const words = [
      "/ban viewer_anna",
      ".timeout x 10",
      "!addcom !a b",
      "\\me waves",
      "\u2060/ban x",
      "\u200b\u00ad.mods",
    ];
    const quietBefore = sent().length;
    for (const word of words) {
      say(`!echo ${word}`);
      expect(await waitFor(() => sent().length > quietBefore + words.indexOf(word), 3000)).toBeTruthy();
      await Bun.sleep(1100);
    }
    const lines = sent().slice(quietBefore);
    expect(lines).toHaveLength(words.length);
    for (const line of lines) {
      expect(line.replyParentMessageId).toBeNull();
      expect(line.text.replace(/\p{Cf}|\p{Z}|\u034f/gu, "")).not.toMatch(/^[/.!\\]/);
    }
    expect((await t.run(button)).body.data?.ok).toBe(true);
    expect(await waitFor(() => sent().at(-1)?.text === "hi CuebotDemo!", 10_000)).toBe(true);
    expect(await t.runs(id)).toHaveLength(words.length);
  }, 60_000);

  test("a step with OBS not connected ends the run saying so; connected again, it works", async () => {
    const { scene } = await t.sceneWithText();
    const id = idOf(
      await post({
        trigger: { type: "button" },
        steps: [
          { type: "wait", seconds: 0.1 },
          { type: "obs.scene", scene },
        ],
      }),
    );
    expect((await api("/api/dashboard/obs", "PUT", { enabled: false })).status).toBe(200);
    const off = await t.run(id);
    expect(off.body.data).toEqual({
      ok: false,
      steps: [
        { type: "wait", ok: true, error: null },
        { type: "obs.scene", ok: false, error: expect.stringContaining("OBS is not connected") },
      ],
    });
    await api("/api/dashboard/obs", "PUT", { enabled: true });
    expect(
      await waitFor(async () => (await api("/api/dashboard/obs")).body.data?.state === "connected", 10_000),
    ).toBeTruthy();
    expect((await t.run(id)).body.data?.ok).toBe(true);
  }, 30_000);

  test("once per event: a raid Twitch delivers twice runs its action once", async () => {
    const { text } = await t.sceneWithText();
    const id = idOf(
      await post({
        trigger: { type: "alert", kind: "raid" },
        steps: [{ type: "obs.text", source: text, text: "{amount}" }],
      }),
    );
    await t.control("emit", { type: "raid", broadcaster_user_id: SIM_IDS.demo, viewers: 7, redeliver: true });
    expect(await waitFor(async () => (await textOf(text)) === "7", 10_000)).toBe(true);
    await Bun.sleep(800);
    expect(await t.runs(id)).toHaveLength(1);
    await api(`/api/dashboard/actions/${id}`, "DELETE");
  }, 30_000);

  test("never queued behind the overlay's alerts: three cheers in a row each start their run within 1 s", async () => {
    const overlay = recordOverlay(t.ctx, t.account.id);
    const { text } = await t.sceneWithText();
    const id = idOf(
      await post({
        trigger: { type: "alert", kind: "cheer" },
        steps: [{ type: "obs.text", source: text, text: "{amount}" }],
      }),
    );
    try {
      for (const bits of [101, 102, 103]) {
        const sent = performance.now();
        await t.emit("cheer", { bits });
        expect(await waitFor(async () => (await textOf(text)) === String(bits), 10_000)).toBe(true);
        expect(performance.now() - sent).toBeLessThan(1000);
        await Bun.sleep(100);
      }
      expect(overlay.alerts.length).toBeGreaterThanOrEqual(3);
    } finally {
      overlay.stop();
      await api(`/api/dashboard/actions/${id}`, "DELETE");
    }
  }, 30_000);

  test("alert triggers need alerts on: with alerts off a raid runs nothing", async () => {
    const { text } = await t.sceneWithText();
    const id = idOf(
      await post({
        trigger: { type: "alert", kind: "raid" },
        steps: [{ type: "obs.text", source: text, text: "raided" }],
      }),
    );
    expect((await api("/api/dashboard/alerts", "PUT", { enabled: false })).status).toBe(200);
    await Bun.sleep(500);
    await t.emit("raid", { viewers: 3 }).catch(() => null);
    await Bun.sleep(800);
    expect(await t.runs(id)).toHaveLength(0);
    expect((await api("/api/dashboard/alerts", "PUT", { enabled: true })).status).toBe(200);
    expect(await t.alertsConnected(10_000)).toBe(true);
    await api(`/api/dashboard/actions/${id}`, "DELETE");
  }, 30_000);

  test("a command is the line's first word, exactly: !name2, a mid-line !name and an owner-level one from a moderator run nothing", async () => {
    const { text } = await t.sceneWithText();
    const id = idOf(
      await post({
        trigger: { type: "command", command: "owneronly", level: "owner" },
        steps: [{ type: "obs.text", source: text, text: "{user}" }],
      }),
    );
    say("!owneronlyx", "cuebotdemo", badge("broadcaster"));
    say("hey !owneronly", "cuebotdemo", badge("broadcaster"));
    say("!owneronly", "mod_mia", MODERATOR);
    await Bun.sleep(1000);
    expect(await t.runs(id)).toHaveLength(0);
    say("!owneronly", "cuebotdemo", badge("broadcaster"));
    expect(await waitFor(async () => (await textOf(text)) === "CuebotDemo", 10_000)).toBe(true);
  }, 30_000);

  test("a timed source goes back as it was: hidden and hidden for a while stays hidden; shown for a while hides again", async () => {
    const { scene, text } = await t.sceneWithText();
    const { sceneItemId } = await t.reader.call("GetSceneItemId", { sceneName: scene, sourceName: text });
    await t.reader.call("SetSceneItemEnabled", { sceneName: scene, sceneItemId, sceneItemEnabled: false });
    const shown = async () =>
      (await t.reader.call("GetSceneItemEnabled", { sceneName: scene, sceneItemId })).sceneItemEnabled;
    const timed = (visible: boolean) =>
      post({
        trigger: { type: "button" },
        steps: [{ type: "obs.source", scene, source: text, visible, seconds: 1 }],
      });
    expect((await t.run(idOf(await timed(false)))).body.data?.ok).toBe(true);
    await Bun.sleep(1500);
    expect(await shown()).toBe(false);
    expect((await t.run(idOf(await timed(true)))).body.data?.ok).toBe(true);
    expect(await shown()).toBe(true);
    expect(await waitFor(async () => !(await shown()), 10_000)).toBe(true);
  }, 30_000);

  test("ids: a bad one → 400, an unknown or deleted one → 404", async () => {
    const id = idOf(await post({ trigger: { type: "button" }, steps: [{ type: "wait", seconds: 0.1 }] }));
    const body = { name: "x", trigger: { type: "button" }, steps: [{ type: "wait", seconds: 1 }] };
    expect((await api("/api/dashboard/actions/abc", "PUT", body)).status).toBe(400);
    expect((await api("/api/dashboard/actions/-1/run", "POST")).status).toBe(400);
    expect((await api(`/api/dashboard/actions/${id + 100_000}`, "PUT", body)).status).toBe(404);
    expect((await api(`/api/dashboard/actions/${id}`, "DELETE")).status).toBe(200);
    expect((await api(`/api/dashboard/actions/${id}/run`, "POST")).status).toBe(404);
    expect((await api(`/api/dashboard/actions/${id}`, "DELETE")).status).toBe(404);
  }, 30_000);

  test("abuse: a {message} of 500 combining marks or of placeholders: one line of at most 500 characters, taken as typed", async () => {
    await post({
      trigger: { type: "command", command: "say" },
      steps: [{ type: "chat", text: "{user}: {message}" }],
    });
    const before = sent().length;
    say(`!say ${"\u0301".repeat(500)}`);
    expect(await waitFor(() => sent().length === before + 1, 10_000)).toBe(true);
    const line = sent().at(-1)?.text ?? "";
    expect(line.startsWith("Viewer_Anna: ")).toBe(true);
    expect([...line].length).toBeLessThanOrEqual(500);
    await Bun.sleep(1100);
    say("!say {user}{amount}{reward}");
    expect(await waitFor(() => sent().length === before + 2, 10_000)).toBe(true);
    expect(sent().at(-1)?.text).toBe("Viewer_Anna: {user}{amount}{reward}");
  }, 30_000);

  test("levels as Nightbot's: a subscriber level answers a founder and a VIP; a regular level does not answer a mere subscriber", async () => {
    const { text } = await t.sceneWithText();
    const step = [{ type: "obs.text", source: text, text: "{user}" }];
    const sub = idOf(
      await post({ trigger: { type: "command", command: "subonly", level: "subscriber" }, steps: step }),
    );
    const regular = idOf(
      await post({ trigger: { type: "command", command: "regonly", level: "regular" }, steps: step }),
    );
    say("!regonly", "subdave", badge("subscriber"));
    say("!subonly", "viewer_anna", badge("none"));
    await Bun.sleep(1000);
    expect([(await t.runs(regular)).length, (await t.runs(sub)).length]).toEqual([0, 0]);
    say("!subonly", "subdave", badge("founder"));
    expect(await waitFor(async () => (await textOf(text)) === "SubDave", 10_000)).toBe(true);
    await Bun.sleep(100);
    say("!subonly", "vipcarla", badge("vip"));
    expect(await waitFor(async () => (await textOf(text)) === "VipCarla", 10_000)).toBe(true);
  }, 30_000);

  test("obs.media restarts and stops a media source; a text step on it, or a media step on a text source, says why", async () => {
    const { scene, text } = await t.sceneWithText();
    const media = `Media ${scene}`;
    await t.reader.call("CreateInput", {
      sceneName: scene,
      inputName: media,
      inputKind: "ffmpeg_source",
      inputSettings: { local_file: "", looping: true },
    });
    const run = async (steps: unknown[]) =>
      (await t.run(idOf(await post({ trigger: { type: "button" }, steps })))).body.data;
    expect(
      await run([
        { type: "obs.media", source: media, action: "restart" },
        { type: "obs.media", source: media, action: "stop" },
      ]),
    ).toEqual({
      ok: true,
      steps: [
        { type: "obs.media", ok: true, error: null },
        { type: "obs.media", ok: true, error: null },
      ],
    });
    const wrongText = await run([{ type: "obs.text", source: media, text: "x" }]);
    expect(wrongText?.steps[0]?.error).toContain(media);
    const wrongMedia = await run([{ type: "obs.media", source: text, action: "restart" }]);
    expect(wrongMedia?.steps[0]?.error).toContain(text);
  }, 30_000);

  test("via overlay with no page open: a run waits at most 10 s, then ok: false saying no overlay page is connected", async () => {
    const { scene } = await t.sceneWithText();
    const id = idOf(await post({ trigger: { type: "button" }, steps: [{ type: "obs.scene", scene }] }));
    expect((await api("/api/dashboard/obs", "PUT", { via: "overlay" })).status).toBe(200);
    try {
      const asked = performance.now();
      const reply = await t.run(id);
      expect(performance.now() - asked).toBeLessThan(11_000);
      expect(reply.body.data?.ok).toBe(false);
      expect(reply.body.data?.steps).toEqual([
        { type: "obs.scene", ok: false, error: expect.stringContaining("no overlay page is connected") },
      ]);
    } finally {
      await api("/api/dashboard/obs", "PUT", { via: "server" });
    }
    expect(
      await waitFor(async () => (await api("/api/dashboard/obs")).body.data?.state === "connected", 10_000),
    ).toBeTruthy();
  }, 30_000);

  test("abuse: an action waiting 60 s triggered again (chat and the run route) does nothing", async () => {
    const id = idOf(
      await post({
        trigger: { type: "command", command: "longwait" },
        steps: [
          { type: "chat", text: "waiting on {user}" },
          { type: "wait", seconds: 60 },
          { type: "chat", text: "done" },
        ],
      }),
    );
    const started = () => sent().filter((line) => line.text.startsWith("waiting on")).length;
    say("!longwait");
    expect(await waitFor(() => started() === 1, 10_000)).toBe(true);
    const again = await t.run(id);
    expect([again.status, again.body.error?.code]).toEqual([409, "busy"]);
    for (let i = 0; i < 20; i++) say("!longwait", "mod_mia", MODERATOR);
    await Bun.sleep(1500);
    expect(started()).toBe(1);
    expect(await t.runs(id)).toHaveLength(0);
  }, 30_000);

  test("abuse: 200 actions on one account are kept and listed", async () => {
    const before = (await list()).length;
    for (let i = 0; i < 200; i++) {
      const res = await post({
        trigger: { type: "alert", kind: "follow" },
        steps: [{ type: "wait", seconds: 1 }],
      });
      expect(res.status).toBe(200);
    }
    expect((await list()).length).toBe(before + 200);
  }, 60_000);
});

describe.skipIf(!haveChromium)("via overlay: the overlay page in Chromium carries the runs out", () => {
  let t: ActionsHarness;
  let api: Dashboard;
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    t = await startActionsHarness(obs);
    t.ctx.config.port = 0;
    server = listen(t.ctx, t.app);
    // The dashboard's Origin is the bound server's.
    api = await dashboard(t);
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser.close();
    await server.stop();
    await t.stop();
  });
  const post = (body: Record<string, unknown>) =>
    api("/api/dashboard/actions", "POST", { name: `relay ${Date.now()}`, ...body });
  const idOf = (res: { body: Json }) => res.body.data?.id as number;
  /** The run route (the harness's own client names the Origin before the server was bound). */
  const run = (id: number) => api(`/api/dashboard/actions/${id}/run`, "POST");

  test("connected within 10 s of the page opening, with OBS's version; the password in no answer", async () => {
    const put = await api("/api/dashboard/obs", "PUT", { via: "overlay", password: obs.password });
    expect(put.status).toBe(200);
    expect(JSON.stringify(put.body)).not.toContain(obs.password);
    const token = (await revealCredential(t.ctx.db, t.ctx.secrets, "overlay-token", t.account.id)) ?? "";
    page = await browser.newPage();
    const opened = Date.now();
    await page.goto(`${server.url}/overlay/${token}`);
    expect(
      await waitFor(async () => (await api("/api/dashboard/obs")).body.data?.state === "connected", 10_000),
    ).toBeTruthy();
    expect(Date.now() - opened).toBeLessThan(10_000);
    const seen = (await api("/api/dashboard/obs")).body.data as unknown as ObsData;
    expect(seen).toMatchObject({ via: "overlay", obsVersion: "29.0.2" });
    expect(JSON.stringify(seen)).not.toContain(obs.password);
  }, 30_000);

  test("a raid switches the scene and sets a text through the page within 1 s; the run route names a missing scene", async () => {
    const { scene, text } = await t.sceneWithText();
    const raid = idOf(
      await post({
        trigger: { type: "alert", kind: "raid" },
        steps: [
          { type: "obs.scene", scene },
          { type: "obs.text", source: text, text: "{user} x{amount}" },
        ],
      }),
    );
    // The page opened by the test before: still connected (a loaded machine may be slow to say so).
    const connected = async () => (await api("/api/dashboard/obs")).body.data?.state === "connected";
    expect(await waitFor(connected, 10_000)).toBe(true);
    const started = performance.now();
    await t.emit("raid", { viewers: 12 });
    const textNow = async () =>
      (await t.reader.call("GetInputSettings", { inputName: text })).inputSettings.text;
    const arrived = await waitFor(async () => (await textNow()) === "OtherStreamer x12", 5000);
    // When it does not arrive, the run log and the connection say why.
    const why = async () => ({ runs: await t.runs(raid), obs: (await api("/api/dashboard/obs")).body.data });
    expect(arrived ?? (await why())).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await t.scene()).toBe(scene);
    const broken = idOf(
      await post({
        trigger: { type: "button" },
        steps: [
          { type: "obs.text", source: text, text: "ok" },
          { type: "obs.scene", scene: "Relay ghost" },
        ],
      }),
    );
    expect((await run(broken)).body.data).toEqual({
      ok: false,
      steps: [
        { type: "obs.text", ok: true, error: null },
        { type: "obs.scene", ok: false, error: expect.stringContaining("Relay ghost") },
      ],
    });
  }, 30_000);

  test("a timed source through the page: answered at once, back after its seconds", async () => {
    const { scene, text } = await t.sceneWithText();
    const id = idOf(
      await post({
        trigger: { type: "button" },
        steps: [{ type: "obs.source", scene, source: text, visible: false, seconds: 1 }],
      }),
    );
    const shown = await t.shownIn(scene, text);
    const asked = performance.now();
    expect((await run(id)).body.data?.ok).toBe(true);
    expect(await shown()).toBe(false);
    expect(await waitFor(shown, 4000)).toBe(true);
    expect(performance.now() - asked).toBeGreaterThanOrEqual(1000);
  }, 30_000);

  test("the page closed: stops counting within 15 s; a run then waits at most 10 s and says no overlay page is connected", async () => {
    const { scene } = await t.sceneWithText();
    const id = idOf(await post({ trigger: { type: "button" }, steps: [{ type: "obs.scene", scene }] }));
    await page.close();
    const closed = Date.now();
    expect(
      await waitFor(async () => (await api("/api/dashboard/obs")).body.data?.state !== "connected", 16_000),
    ).toBeTruthy();
    expect(Date.now() - closed).toBeLessThanOrEqual(15_000);
    const asked = performance.now();
    const reply = await run(id);
    expect(performance.now() - asked).toBeLessThan(11_000);
    expect(reply.body.data?.ok).toBe(false);
    expect(reply.body.data?.steps).toEqual([
      { type: "obs.scene", ok: false, error: expect.stringContaining("no overlay page is connected") },
    ]);
  }, 60_000);
});
