import { describe, expect, test } from "bun:test";
import type { Action, ActionRun, ActionStep, RunCause } from "../../../server/actions/model.ts";
import { ActionRunner } from "../../../server/actions/runner.ts";
import { ObsNotConnected } from "../../../server/obs/connection.ts";
import { OBS_STEP_ERRORS, type ObsStep, ObsStepFailed } from "../../../server/obs/steps.ts";

/** An OBS that records each step, with one source visible and the scenes it has. */
function fakeObs(scenes = ["Live", "BRB"]) {
  const asked: (ObsStep & { at: number })[] = [];
  let visible = true;
  let connected = true;
  return {
    asked,
    disconnect: () => {
      connected = false;
    },
    async step(_accountId: number, step: ObsStep) {
      if (!connected) throw new ObsNotConnected("OBS is not connected: OBS is not running.");
      asked.push({ ...step, at: Date.now() });
      if (step.type === "obs.scene" && !scenes.includes(step.scene))
        throw new ObsStepFailed(OBS_STEP_ERRORS.noScene(step.scene));
      if (step.type === "obs.source") {
        const wasVisible = visible;
        visible = step.visible;
        return { wasVisible };
      }
      return {};
    },
  };
}

const BUTTON: RunCause = { trigger: "button", user: "Streamer", amount: null, reward: null, message: null };

function action(steps: ActionStep[], cooldownSeconds = 0): Action {
  return {
    id: 7,
    name: "raid",
    enabled: true,
    cooldownSeconds,
    trigger: { type: "button" },
    steps,
    lastRun: null,
  };
}

function runnerWith(obs = fakeObs()) {
  const said: string[] = [];
  const runs: ActionRun[] = [];
  let chatOn = true;
  const runner = new ActionRunner({
    obs,
    say: (_accountId, text) => {
      if (!chatOn) return "Chat is not connected.";
      said.push(text);
      return null;
    },
    record: async (_accountId, run) => {
      runs.push(run);
    },
    now: () => Date.now(),
    log: { warn: () => {} },
  });
  return { runner, obs, said, runs, chatOff: () => (chatOn = false) };
}

describe("an action's run", () => {
  test("runs its steps in order and answers each; the run is recorded", async () => {
    const { runner, obs, said, runs } = runnerWith();
    const answer = await runner.start(
      1,
      action([
        { type: "obs.scene", scene: "BRB" },
        { type: "chat", text: "{user} is away" },
        { type: "obs.text", source: "Note", text: "by {user}" },
      ]),
      BUTTON,
    );
    expect(answer).toEqual({
      ok: true,
      steps: [
        { type: "obs.scene", ok: true, error: null },
        { type: "chat", ok: true, error: null },
        { type: "obs.text", ok: true, error: null },
      ],
    });
    expect(obs.asked.map(({ at: _, ...step }) => step)).toEqual([
      { type: "obs.scene", scene: "BRB" },
      { type: "obs.text", source: "Note", text: "by Streamer" },
    ]);
    expect(said).toEqual(["Streamer is away"]);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ actionId: 7, ok: true, cause: "button", user: "Streamer" });
  });

  test("a step OBS cannot carry out ends the run there, naming the scene", async () => {
    const { runner, obs, runs } = runnerWith();
    const answer = await runner.start(
      1,
      action([
        { type: "obs.scene", scene: "Gone" },
        { type: "obs.scene", scene: "Live" },
      ]),
      BUTTON,
    );
    expect(answer).toEqual({
      ok: false,
      steps: [{ type: "obs.scene", ok: false, error: 'OBS has no scene "Gone".' }],
    });
    expect(obs.asked).toHaveLength(1);
    expect(runs[0]!.ok).toBe(false);
  });

  test("OBS not connected: the run fails saying so", async () => {
    const obs = fakeObs();
    obs.disconnect();
    const { runner } = runnerWith(obs);
    const answer = await runner.start(1, action([{ type: "obs.scene", scene: "Live" }]), BUTTON);
    expect(answer?.steps).toEqual([
      { type: "obs.scene", ok: false, error: "OBS is not connected: OBS is not running." },
    ]);
  });

  test("a chat step with chat off fails saying why", async () => {
    const { runner, chatOff } = runnerWith();
    chatOff();
    const answer = await runner.start(1, action([{ type: "chat", text: "hi" }]), BUTTON);
    expect(answer).toEqual({
      ok: false,
      steps: [{ type: "chat", ok: false, error: "Chat is not connected." }],
    });
  });

  test("one run at a time: a start during a run does nothing; so does one during the cooldown", async () => {
    const { runner, obs } = runnerWith();
    const waiting = action(
      [
        { type: "wait", seconds: 0.3 },
        { type: "obs.scene", scene: "Live" },
      ],
      0.3,
    );
    const first = runner.start(1, waiting, BUTTON);
    expect(first).not.toBeNull();
    for (let i = 0; i < 100; i++) expect(runner.start(1, waiting, BUTTON)).toBeNull();
    expect((await first)?.ok).toBe(true);
    expect(runner.start(1, waiting, BUTTON)).toBeNull();
    expect(obs.asked).toHaveLength(1);
    await Bun.sleep(350);
    expect(runner.start(1, waiting, BUTTON)).not.toBeNull();
  });

  test("an action that waits 60 s, triggered again a thousand times meanwhile: nothing more runs", async () => {
    const { runner, obs, runs } = runnerWith();
    const long = action([
      { type: "wait", seconds: 60 },
      { type: "obs.scene", scene: "Live" },
    ]);
    expect(runner.start(1, long, BUTTON)).not.toBeNull();
    for (let i = 0; i < 1000; i++) expect(runner.start(1, long, BUTTON)).toBeNull();
    await Bun.sleep(100);
    expect(runner.busy(1, long.id)).toBe(true);
    expect(obs.asked).toEqual([]);
    expect(runs).toEqual([]);
  });

  test("another account's action of the same id runs beside it", async () => {
    const { runner } = runnerWith();
    const waiting = action([{ type: "wait", seconds: 0.1 }]);
    const first = runner.start(1, waiting, BUTTON);
    expect(runner.start(2, waiting, BUTTON)).not.toBeNull();
    await first;
  });

  test("a timed source: the answer comes at once, the source goes back after its seconds", async () => {
    const { runner, obs } = runnerWith();
    const started = Date.now();
    const answer = await runner.start(
      1,
      action([{ type: "obs.source", scene: "Live", source: "Cam", visible: false, seconds: 0.4 }]),
      BUTTON,
    );
    expect(Date.now() - started).toBeLessThan(200);
    expect(answer?.ok).toBe(true);
    expect(obs.asked.map((s) => (s.type === "obs.source" ? s.visible : null))).toEqual([false]);
    expect(obs.asked[0]).not.toHaveProperty("seconds");
    await Bun.sleep(600);
    expect(obs.asked.map((s) => (s.type === "obs.source" ? s.visible : null))).toEqual([false, true]);
    expect(obs.asked[1]!.at - obs.asked[0]!.at).toBeGreaterThanOrEqual(390);
  });

  test("a timed source that already was as asked sends nothing back", async () => {
    const { runner, obs } = runnerWith();
    const step = { type: "obs.source", scene: "Live", source: "Cam", visible: true, seconds: 0.1 } as const;
    await runner.start(1, action([step]), BUTTON);
    await Bun.sleep(200);
    expect(obs.asked).toHaveLength(1);
  });

  test("a run the store could not record still answers", async () => {
    const obs = fakeObs();
    const runner = new ActionRunner({
      obs,
      say: () => null,
      record: () => Promise.reject(new Error("database away")),
      now: () => Date.now(),
      log: { warn: () => {} },
    });
    expect(await runner.start(1, action([{ type: "obs.scene", scene: "Live" }]), BUTTON)).toEqual({
      ok: true,
      steps: [{ type: "obs.scene", ok: true, error: null }],
    });
  });
});
