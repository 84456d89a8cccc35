import { afterEach, describe, expect, test } from "bun:test";
import { OBSWebSocket } from "obs-websocket-js/json";
import type { ObsSeen } from "../../../db/obs.ts";
import { ObsConnection, ObsNotConnected, type ObsTarget } from "../../../server/obs/connection.ts";
import { startObsSimulator } from "../../../server/sim/obs/server.ts";
import { freePort } from "../../helpers/engines.ts";
import { OBS_TARGETS, type RunningObs } from "../sim/obs/targets.ts";

/**
 * An account's OBS connection (CONTRACT §6 "Actions"), against the simulator and a real OBS 29.0.2:
 * connected with OBS's version, scenes and inputs; a lost OBS noticed within 15 s and connected again
 * within 10 s of coming back; a wrong password auth_failed within 10 s, asked again at most once a minute.
 */

const open: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

function watch(target: ObsTarget) {
  const states: ObsSeen[] = [];
  const connection = new ObsConnection(target, {
    now: () => Date.now(),
    changed: (seen) => states.push(seen),
  });
  open.push(() => connection.close());
  connection.start();
  const until = async (wanted: (seen: ObsSeen) => boolean, withinMs: number) => {
    const started = Date.now();
    while (!wanted(connection.status())) {
      if (Date.now() - started > withinMs)
        throw new Error(`not reached within ${withinMs} ms; now ${JSON.stringify(connection.status())}`);
      await Bun.sleep(50);
    }
    return Date.now() - started;
  };
  return { connection, states, until };
}

for (const target of OBS_TARGETS) {
  describe(`on ${target.name}`, () => {
    let obs: RunningObs;
    const start = async () => {
      obs = await target.start();
      open.push(() => obs.stop());
      return obs;
    };

    test("connected within 10 s with OBS's version, scenes and inputs; a new input is listed", async () => {
      await start();
      const { connection, until } = watch({ url: obs.url, password: obs.password });
      await until((seen) => seen.state === "connected", 10_000);
      const seen = connection.status();
      expect(seen.obsVersion).toBe("29.0.2");
      expect(seen.scenes).toContain("Scene");
      expect(seen.reason).toBeNull();
      const other = new OBSWebSocket();
      await other.connect(obs.url, obs.password);
      open.push(() => other.disconnect());
      await other.call("CreateInput", {
        sceneName: "Scene",
        inputName: "Raid text",
        inputKind: "text_ft2_source_v2",
        inputSettings: { text: "hi" },
      });
      await until((s) => s.sources.includes("Raid text"), 10_000);
      expect((await connection.call("GetVersion")).obsVersion).toBe("29.0.2");
    }, 40_000);

    test("wrong password: auth_failed within 10 s, a reason saying so, and requests refused", async () => {
      await start();
      const { connection, until } = watch({ url: obs.url, password: "not-the-password" });
      await until((seen) => seen.state === "auth_failed", 10_000);
      expect(connection.status().reason).toContain("Wrong password");
      await expect(connection.call("GetVersion")).rejects.toBeInstanceOf(ObsNotConnected);
    }, 40_000);

    test("OBS killed while cuebot connects: unreachable, then connected within 10 s of its return", async () => {
      await start();
      const { until } = watch({ url: obs.url, password: obs.password });
      await obs.kill();
      await until((seen) => seen.state === "unreachable", 10_000);
      await obs.restart();
      await until((seen) => seen.state === "connected", 10_000);
    }, 60_000);

    test("OBS killed: noticed within 15 s; back: connected within 10 s", async () => {
      await start();
      const { until } = watch({ url: obs.url, password: obs.password });
      await until((seen) => seen.state === "connected", 10_000);
      await obs.kill();
      await until((seen) => seen.state !== "connected", 15_000);
      await until((seen) => seen.state === "unreachable", 10_000);
      await obs.restart();
      const took = await until((seen) => seen.state === "connected", 10_000);
      expect(took).toBeLessThan(10_000);
    }, 60_000);
  });
}

describe("on the simulator alone", () => {
  test("nothing listening: unreachable within 10 s, saying OBS is not running or obs-websocket is off", async () => {
    const { connection, until } = watch({ url: `ws://127.0.0.1:${await freePort()}`, password: null });
    await until((seen) => seen.state === "unreachable", 10_000);
    expect(connection.status().reason).toContain("OBS is not running or obs-websocket is off");
    expect(connection.status().reason).toContain("Tools → WebSocket Server Settings");
  });

  test("a wrong password is tried once, not again within the minute (counted Identify messages)", async () => {
    const sim = startObsSimulator({ password: "right" });
    open.push(() => sim.kill());
    const proxy = identifyCounter(sim.url);
    open.push(() => proxy.stop());
    const { until } = watch({ url: proxy.url, password: "wrong" });
    await until((seen) => seen.state === "auth_failed", 10_000);
    await Bun.sleep(4_000);
    expect(proxy.identifies()).toBe(1);
  }, 20_000);

  test("a link that goes silent without closing is noticed within 15 s (OBS asked for its version every 5 s)", async () => {
    const sim = startObsSimulator({ password: "pw" });
    open.push(() => sim.kill());
    const relay = identifyCounter(sim.url);
    open.push(() => relay.stop());
    const { until } = watch({ url: relay.url, password: "pw" });
    await until((seen) => seen.state === "connected", 10_000);
    relay.freeze();
    const took = await until((seen) => seen.state !== "connected", 15_000);
    expect(took).toBeLessThan(15_000);
  }, 25_000);

  test("a request in flight when the connection drops fails at once, saying OBS is not connected", async () => {
    const sim = startObsSimulator({ password: "pw" });
    open.push(() => sim.kill());
    const relay = identifyCounter(sim.url);
    const { connection, until } = watch({ url: relay.url, password: "pw" });
    await until((seen) => seen.state === "connected", 10_000);
    relay.freeze();
    const asked = connection.call("GetSceneList").then(
      () => null,
      (error: unknown) => error,
    );
    await Bun.sleep(100);
    const dropped = Date.now();
    relay.stop();
    const error = await asked;
    expect(Date.now() - dropped).toBeLessThan(1_000);
    expect(error).toBeInstanceOf(ObsNotConnected);
    expect((error as Error).message).toStartWith("OBS is not connected");
  });

  test("after a wrong password it asks again after the wait and connects once OBS has that password", async () => {
    const sim = startObsSimulator({ password: "right" });
    open.push(() => sim.kill());
    const connection = new ObsConnection(
      { url: sim.url, password: "new" },
      { now: () => Date.now(), changed: () => {} },
      { probeMs: 5_000, answerMs: 5_000, backoffMs: [500], authRetryMs: 1_000 },
    );
    open.push(() => connection.close());
    connection.start();
    while (connection.status().state !== "auth_failed") await Bun.sleep(50);
    sim.setPassword("new");
    const started = Date.now();
    while (connection.status().state !== "connected" && Date.now() - started < 5_000) await Bun.sleep(50);
    expect(connection.status().state).toBe("connected");
  });
});

/**
 * A WebSocket relay in front of OBS that counts the Identify (op 1) messages clients send, and can
 * freeze: it then passes nothing either way and closes nothing, as a link that went dead silently.
 */
function identifyCounter(upstream: string) {
  let identifies = 0;
  let frozen = false;
  const server = Bun.serve<{ up: WebSocket; queue: string[] }>({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request, srv) {
      const up = new WebSocket(upstream, ["obswebsocket.json"]);
      const data = { up, queue: [] as string[] };
      const headers = new Headers({ "Sec-WebSocket-Protocol": "obswebsocket.json" });
      return srv.upgrade(request, { data, headers }) ? undefined : new Response("upgrade", { status: 400 });
    },
    websocket: {
      open(ws) {
        const { up } = ws.data;
        up.onopen = () => {
          for (const text of ws.data.queue.splice(0)) up.send(text);
        };
        up.onmessage = (event) => {
          if (!frozen) ws.send(String(event.data));
        };
        up.onclose = (event) => ws.close(event.code, event.reason);
      },
      message(ws, message) {
        const text = String(message);
        if ((JSON.parse(text) as { op: number }).op === 1) identifies++;
        if (frozen) return;
        if (ws.data.up.readyState === WebSocket.OPEN) ws.data.up.send(text);
        else ws.data.queue.push(text);
      },
      close(ws) {
        ws.data.up.close();
      },
    },
  });
  return {
    url: `ws://127.0.0.1:${server.port}`,
    identifies: () => identifies,
    freeze: () => {
      frozen = true;
    },
    stop: () => server.stop(true),
  };
}
