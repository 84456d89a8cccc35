import OBSWebSocket, { EventSubscription } from "obs-websocket-js/json";
import { listAccounts } from "../db/accounts.ts";
import { setAlertsEnabled } from "../db/alerts.ts";
import { writeObsSettings } from "../db/obs.ts";
import { createAction } from "../server/actions/store.ts";
import { loadConfig } from "../server/core/config.ts";
import { createCore } from "../server/core/context.ts";
import { createLogger } from "../server/core/log.ts";
import { startObsSimulator } from "../server/sim/obs/server.ts";
import { haveObs, startRealObs } from "../tests/helpers/obs.ts";
import { percentile } from "./chat-load.ts";
import { createFixture, type Fixture, startBinary } from "./fixture.ts";
import type { TableRow } from "./table.ts";

/**
 * Actions (issue 37, `npm run bench`'s "obs" rows), black box: the built binary reads the bench
 * streamer's alerts over the Twitch simulator's EventSub socket and holds an obs-websocket connection
 * to OBS; one action shows a source on every raid. The bench hides the source (and hears it hidden),
 * then times the raid from asking the simulated Twitch to send it (`POST /_sim/eventsub/emit`) to a
 * listening obs-websocket client (one that sends no requests, so nothing of its own delays what OBS
 * pushes to it) hearing SceneItemEnableStateChanged (shown): the
 * event's whole path through cuebot (EventSub, the alertReceived hook, the runner's three requests
 * through obs-websocket-js) and OBS applying it. (OBS 29's obs-websocket 5.1 has no event for a
 * text change: InputSettingsChanged came in 5.4.)
 * Against the OBS simulator and, where Debian's obs-studio and Xvfb are installed, a real OBS 29.
 * `bun bench/obs-latency.ts [--events 200]`.
 */

const SCENE = "Bench";
const SOURCE = "Bench text";
/** Raids sent before measuring: the first ones also wait for the subscription and the connection. */
const WARM_UP = 5;
const EVENT_TIMEOUT_MS = 10_000;
const CONNECT_TIMEOUT_MS = 30_000;
const RUN_GAP_MS = 50;

interface ObsTarget {
  name: string;
  url: string;
  password: string;
  stop(): Promise<void>;
}

async function simulatedObs(): Promise<ObsTarget> {
  const sim = startObsSimulator({ password: "bench-password", seeded: false });
  return { name: "simulated OBS", url: sim.url, password: "bench-password", stop: () => sim.stop() };
}

async function realObs(): Promise<ObsTarget> {
  const obs = await startRealObs();
  return { name: "real OBS 29", url: obs.url, password: obs.password, stop: () => obs.stop() };
}

interface Observer {
  /** Makes the scene and its source, and hides it. */
  socket: OBSWebSocket;
  /** Only hears the source shown and hidden. */
  listener: OBSWebSocket;
  sceneItemId: number;
}

/** The bench's own clients: one makes the scene and its source and hides it, one hears it change. */
async function observe(target: ObsTarget): Promise<Observer> {
  const socket = new OBSWebSocket();
  const listener = new OBSWebSocket();
  await socket.connect(target.url, target.password, { eventSubscriptions: EventSubscription.None });
  await listener.connect(target.url, target.password, { eventSubscriptions: EventSubscription.SceneItems });
  await socket.call("CreateScene", { sceneName: SCENE });
  const { sceneItemId } = await socket.call("CreateInput", {
    sceneName: SCENE,
    inputName: SOURCE,
    inputKind: "text_ft2_source_v2",
    inputSettings: { text: "Raid!" },
  });
  return { socket, listener, sceneItemId };
}

/** The bench streamer's OBS settings, alerts on, and one action: a raid sets the text source. */
async function seed(fixture: Fixture, target: ObsTarget): Promise<string> {
  const core = createCore(loadConfig({ dataDir: fixture.dataDir, env: {} }), {
    log: createLogger({ level: "error", format: "json", write: () => {} }),
  });
  try {
    const account = (await listAccounts(core.db)).find((a) => a.login === fixture.streamers[0]!.login)!;
    const now = Date.now();
    await writeObsSettings(
      core.db,
      core.secrets,
      account.id,
      { enabled: true, url: target.url, via: "server", password: target.password },
      now,
    );
    await setAlertsEnabled(core.db, account.id, true, now);
    await createAction(
      core.db,
      account.id,
      {
        name: "Raid source",
        enabled: true,
        cooldownSeconds: 0,
        trigger: { type: "alert", kind: "raid", min: 0, reward: null },
        steps: [{ type: "obs.source", scene: SCENE, source: SOURCE, visible: true }],
      },
      now,
    );
    return account.twitchUserId;
  } finally {
    await core.close();
  }
}

/** Resolves with the time the listener hears the source shown (or hidden); rejects after EVENT_TIMEOUT_MS. */
function heard(observer: Observer, enabled: boolean): Promise<number> {
  const { listener, sceneItemId } = observer;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      listener.off("SceneItemEnableStateChanged", onChange);
      reject(new Error(`OBS never ${enabled ? "showed" : "hid"} the source`));
    }, EVENT_TIMEOUT_MS);
    const onChange = (event: { sceneName: string; sceneItemId: number; sceneItemEnabled: boolean }) => {
      if (event.sceneName !== SCENE || event.sceneItemId !== sceneItemId) return;
      if (event.sceneItemEnabled !== enabled) return;
      clearTimeout(timer);
      listener.off("SceneItemEnableStateChanged", onChange);
      resolve(performance.now());
    };
    listener.on("SceneItemEnableStateChanged", onChange);
  });
}

/** Hides the source (when shown) and waits until the listener heard it hidden. */
async function hide(observer: Observer): Promise<void> {
  const { socket, sceneItemId } = observer;
  const now = await socket.call("GetSceneItemEnabled", { sceneName: SCENE, sceneItemId });
  if (!now.sceneItemEnabled) return;
  const hidden = heard(observer, false);
  await socket.call("SetSceneItemEnabled", { sceneName: SCENE, sceneItemId, sceneItemEnabled: false });
  await hidden;
}

/** One raid of `viewers` through the simulated Twitch; the milliseconds until OBS has its text. */
async function raid(fixture: Fixture, observer: Observer, broadcaster: string, viewers: number) {
  // The last run ends a moment after OBS shows its source (it is recorded); a raid during a run does
  // nothing (CONTRACT §6), so each raid waits for the one before to be over.
  await Bun.sleep(RUN_GAP_MS);
  const emitUrl = `${new URL(fixture.env.CUEBOT_TWITCH_AUTH_URL!).origin}/_sim/eventsub/emit`;
  await hide(observer);
  const arrival = heard(observer, true);
  const started = performance.now();
  const response = await fetch(emitUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ type: "raid", broadcaster_user_id: broadcaster, viewers }),
  });
  const { delivered } = (await response.json()) as { delivered: number };
  if (delivered === 0) {
    arrival.catch(() => {});
    return null;
  }
  return (await arrival) - started;
}

/** Raids until one gets through (the subscription and the OBS connection are up), then WARM_UP more. */
async function warmUp(fixture: Fixture, observer: Observer, broadcaster: string): Promise<void> {
  const deadline = performance.now() + CONNECT_TIMEOUT_MS;
  let viewers = 1;
  for (;;) {
    const took = await raid(fixture, observer, broadcaster, viewers++).catch(() => null);
    if (took !== null) break;
    if (performance.now() > deadline) throw new Error("no raid reached OBS: cuebot did not connect");
    await Bun.sleep(250);
  }
  for (let i = 0; i < WARM_UP; i++) await raid(fixture, observer, broadcaster, viewers++);
}

/**
 * The yardstick: the same three requests the runner sends (find the item, read it, show it), made by
 * the bench's own client after hiding the source, until OBS says it is shown: OBS's share of the time.
 */
async function bareShow(observer: Observer): Promise<number> {
  const { socket, sceneItemId } = observer;
  await hide(observer);
  const arrival = heard(observer, true);
  const started = performance.now();
  await socket.call("GetSceneItemId", { sceneName: SCENE, sourceName: SOURCE });
  await socket.call("GetSceneItemEnabled", { sceneName: SCENE, sceneItemId });
  await socket.call("SetSceneItemEnabled", { sceneName: SCENE, sceneItemId, sceneItemEnabled: true });
  return (await arrival) - started;
}

const p50p99 = (sorted: number[]) =>
  `${percentile(sorted, 50).toFixed(1)} / ${percentile(sorted, 99).toFixed(1)} ms`;

async function measureTarget(target: ObsTarget, events: number): Promise<TableRow[]> {
  const fixture = await createFixture(1);
  const observer = await observe(target);
  const broadcaster = await seed(fixture, target);
  const cuebot = await startBinary(fixture, { settled: true, binary: process.env.BENCH_BINARY });
  try {
    await warmUp(fixture, observer, broadcaster);
    const latencies: number[] = [];
    for (let i = 0; i < events; i++) {
      const took = await raid(fixture, observer, broadcaster, 10_000 + i);
      if (took === null) throw new Error("a raid was not delivered");
      latencies.push(took);
    }
    const bare: number[] = [];
    for (let i = 0; i < events; i++) bare.push(await bareShow(observer));
    latencies.sort((a, b) => a - b);
    bare.sort((a, b) => a - b);
    return [
      {
        bench: `action, raid → ${target.name}`,
        measure: "event → OBS p50 / p99",
        value: p50p99(latencies),
        note: `${events} raids one after another, from the simulated Twitch's emit to OBS's SceneItemEnableStateChanged (shown)`,
      },
      {
        bench: `action, raid → ${target.name}`,
        measure: "yardstick p50 / p99",
        value: p50p99(bare),
        note: "the runner's three requests sent by the bench's own client, to the same event: OBS's share",
      },
    ];
  } finally {
    await cuebot.stop();
    await observer.socket.disconnect();
    await observer.listener.disconnect();
    await fixture.stop();
  }
}

/** The rows: the simulator always, a real OBS when installed (else a row saying it was not). */
export async function obsLatencyRows(options: { events: number }): Promise<TableRow[]> {
  const rows: TableRow[] = [];
  const targets = haveObs ? [simulatedObs, realObs] : [simulatedObs];
  for (const start of targets) {
    const target = await start();
    try {
      rows.push(...(await measureTarget(target, options.events)));
    } finally {
      await target.stop();
    }
  }
  if (!haveObs)
    rows.push({
      bench: "action, raid → real OBS 29",
      measure: "event → OBS p50 / p99",
      value: "n/a",
      note: "obs-studio and xvfb are not installed here",
    });
  return rows;
}

if (import.meta.main) {
  const { formatTable } = await import("./table.ts");
  const at = process.argv.indexOf("--events");
  const events = at === -1 ? 200 : Number(process.argv[at + 1]);
  console.log(formatTable(await obsLatencyRows({ events })));
}
