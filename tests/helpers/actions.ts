/**
 * Actions end to end: cuebotdemo's native chat and alerts on the Twitch simulator (tests/helpers/alerts.ts),
 * its OBS connection to a real OBS 29.0.2 where installed (else the OBS simulator), the dashboard's
 * run route with a session, and a second obs-websocket client to read OBS back.
 */
import { OBSWebSocket } from "obs-websocket-js/json";
import type { ActionInput, ActionRun, StepOutcome } from "../../server/actions/model.ts";
import { createAction } from "../../server/actions/store.ts";
import { createSession, SESSION_COOKIE } from "../../server/core/sessions.ts";
import { changeObs } from "../../server/obs/dashboard.ts";
import { startObsSimulator } from "../../server/sim/obs/server.ts";
import { type AlertsHarness, startAlertsHarness } from "./alerts.ts";
import { waitFor } from "./chat.ts";
import { explainObsSkip, haveObs, type RealObs, startRealObs } from "./obs.ts";

/** An OBS the tests drive: real where installed, else the simulator. */
export interface TestObs {
  name: string;
  url: string;
  password: string;
  kill(): Promise<void>;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const PASSWORD = "actions-test-pw";

/** A real OBS where installed (or asked for), else the simulator (or when asked for). */
export async function startTestObs(
  kind: "real" | "simulator" = haveObs ? "real" : "simulator",
): Promise<TestObs> {
  explainObsSkip();
  if (kind === "real") {
    const real: RealObs = await startRealObs({ password: PASSWORD });
    return { name: "real OBS 29.0.2", ...real, password: PASSWORD };
  }
  const sim = startObsSimulator({ password: PASSWORD, seeded: false });
  return {
    name: "simulated OBS",
    url: sim.url,
    password: PASSWORD,
    kill: () => sim.kill(),
    restart: () => sim.restart(),
    stop: () => sim.kill(),
  };
}

export interface RunReply {
  status: number;
  body: { data?: { ok: boolean; steps: StepOutcome[] }; error?: { code: string; message: string } };
}

export interface ActionsHarness extends AlertsHarness {
  /** A second client of the same OBS, to build scenes and read OBS back. */
  reader: OBSWebSocket;
  /** A dashboard request with the streamer's session (and our Origin). */
  panel(path: string, method?: string, body?: string): Promise<Response>;
  /** Stores an action (as the dashboard's POST does) and has the live layer read it; its id. */
  add(input: Partial<ActionInput> & Pick<ActionInput, "trigger" | "steps">): Promise<number>;
  /** `POST /api/dashboard/actions/:id/run` with the streamer's session. */
  run(id: number): Promise<RunReply>;
  /** `GET /api/dashboard/actions/:id/runs`. */
  runs(id: number): Promise<(Omit<ActionRun, "at"> & { at: string })[]>;
  /** The program scene OBS shows now. */
  scene(): Promise<string>;
  /** A new scene holding a text source (and the names of both), unique to the test. */
  sceneWithText(): Promise<{ scene: string; text: string }>;
  /** Reads whether `source` shows in `scene`, as OBS says now. */
  shownIn(scene: string, source: string): Promise<() => Promise<boolean>>;
}

let unique = 0;

/** The harness with alerts, chat and OBS connected (within 10 s each). */
export async function startActionsHarness(obs: TestObs): Promise<ActionsHarness> {
  const h = await startAlertsHarness();
  await h.grant({ chat: true });
  await changeObs(h.ctx, h.account.id, {
    enabled: true,
    url: obs.url,
    via: "server",
    password: obs.password,
  });
  h.serve();
  if (!(await h.alertsConnected(10_000))) throw new Error("alerts did not connect");
  // Chat reads on the same socket but subscribes on its own: a line said before that is not delivered.
  const reading = await waitFor(
    async () => (await h.ctx.chat.status(h.account.id)).state === "connected",
    10_000,
  );
  if (!reading)
    throw new Error(`chat did not connect: ${JSON.stringify(await h.ctx.chat.status(h.account.id))}`);
  const connected = await waitFor(() => h.ctx.obs.seen(h.account.id)?.state === "connected", 10_000);
  if (!connected) throw new Error(`OBS did not connect: ${JSON.stringify(h.ctx.obs.seen(h.account.id))}`);
  const reader = new OBSWebSocket();
  await reader.connect(obs.url, obs.password);
  const session = await createSession(h.ctx, h.account.id, "test");
  const cookie = `${SESSION_COOKIE}=${session.token}`;
  const origin = new URL(h.ctx.publicUrl).origin;
  const panel = (path: string, method = "GET", body?: string) =>
    h.request(path, {
      method,
      body,
      headers: { cookie, origin, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    });
  const stop = h.stop;
  return Object.assign(h, {
    reader,
    panel,
    async add(input: Partial<ActionInput> & Pick<ActionInput, "trigger" | "steps">) {
      const full = { name: `action ${++unique}`, enabled: true, cooldownSeconds: 0, ...input };
      const action = await createAction(h.ctx.db, h.account.id, full, Date.now());
      if (!action) throw new Error("not stored");
      h.ctx.actions.changed(h.account.id);
      return action.id;
    },
    async run(id: number) {
      const res = await panel(`/api/dashboard/actions/${id}/run`, "POST");
      return { status: res.status, body: (await res.json()) as RunReply["body"] };
    },
    async runs(id: number) {
      const res = await panel(`/api/dashboard/actions/${id}/runs`);
      return ((await res.json()) as { data: { items: (Omit<ActionRun, "at"> & { at: string })[] } }).data
        .items;
    },
    async scene() {
      return (await reader.call("GetCurrentProgramScene")).currentProgramSceneName;
    },
    async sceneWithText() {
      const names = { scene: `Scene ${++unique}`, text: `Text ${unique}` };
      await reader.call("CreateScene", { sceneName: names.scene });
      await reader.call("CreateInput", {
        sceneName: names.scene,
        inputName: names.text,
        inputKind: "text_ft2_source_v2",
        inputSettings: { text: "" },
      });
      return names;
    },
    async shownIn(scene: string, source: string) {
      const { sceneItemId } = await reader.call("GetSceneItemId", { sceneName: scene, sourceName: source });
      return async () =>
        (await reader.call("GetSceneItemEnabled", { sceneName: scene, sceneItemId })).sceneItemEnabled;
    },
    async stop() {
      await reader.disconnect().catch(() => {});
      await stop();
    },
  });
}
