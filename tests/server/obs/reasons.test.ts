import { afterEach, expect, test } from "bun:test";
import { ObsConnection } from "../../../server/obs/connection.ts";
import { outcomeOf } from "../../../server/obs/reasons.ts";
import { startKickingObs } from "./kicking-obs.ts";

/** What a failed connection tells the streamer, by what OBS (or what is not OBS) answered. */

const URL = "ws://127.0.0.1:4455";

test("each failure as a state and a reason that says what to do", () => {
  expect(outcomeOf(4009, "Authentication failed.", URL, true).state).toBe("auth_failed");
  expect(outcomeOf(4009, "Authentication failed.", URL, true).reason).toContain("Wrong password");
  expect(outcomeOf(4009, "missing `authentication`", URL, false).reason).toContain("OBS asks for a password");
  expect(outcomeOf(4011, "", URL, true).state).toBe("error");
  expect(outcomeOf(4011, "", URL, true).reason).toContain("kicked");
  expect(outcomeOf(-1, "Server sent no subprotocol", URL, true).reason).toContain("obs-websocket 5");
  expect(outcomeOf(-1, "connect ECONNREFUSED 127.0.0.1:4455", URL, true)).toEqual({
    state: "unreachable",
    reason: `OBS is not running or obs-websocket is off: Tools → WebSocket Server Settings → Enable WebSocket server (cuebot tries ${URL}).`,
  });
});

let server: ReturnType<typeof Bun.serve> | null = null;
let connection: ObsConnection | null = null;
let stopObs: (() => unknown) | null = null;
afterEach(async () => {
  connection?.close();
  await server?.stop(true);
  await stopObs?.();
});

test("a WebSocket server that is not obs-websocket 5 (no subprotocol chosen): error, saying so, retried", async () => {
  let upgrades = 0;
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request, srv) {
      upgrades++;
      return srv.upgrade(request, { data: undefined, headers: new Headers({ "Sec-WebSocket-Protocol": "" }) })
        ? undefined
        : new Response("no", { status: 400 });
    },
    websocket: { message() {} },
  });
  const url = `ws://127.0.0.1:${server.port}`;
  connection = new ObsConnection(
    { url, password: null },
    { now: () => Date.now(), changed: () => {} },
    { probeMs: 5_000, answerMs: 2_000, backoffMs: [200], authRetryMs: 60_000 },
  );
  connection.start();
  const started = Date.now();
  while (connection.status().state === "connecting" && Date.now() - started < 5_000) await Bun.sleep(20);
  expect(connection.status().state).toBe("error");
  expect(connection.status().reason).toContain("does not speak obs-websocket 5");
  await Bun.sleep(500);
  expect(upgrades).toBeGreaterThan(1);
});

test("kicked from OBS's session list (close 4011) while connected: error, saying so, and no reconnect", async () => {
  const obs = startKickingObs();
  stopObs = obs.stop;
  connection = new ObsConnection(
    { url: obs.url, password: null },
    { now: () => Date.now(), changed: () => {} },
    { probeMs: 5_000, answerMs: 2_000, backoffMs: [100], authRetryMs: 60_000 },
  );
  connection.start();
  const started = Date.now();
  while (connection.status().state !== "connected" && Date.now() - started < 5_000) await Bun.sleep(20);
  expect(connection.status().state).toBe("connected");
  obs.kick();
  await Bun.sleep(600);
  expect(connection.status().state).toBe("error");
  expect(connection.status().reason).toContain("kicked");
  expect(obs.upgrades()).toBe(1);
});
