import { startActionsHarness, startTestObs } from "../tests/helpers/actions.ts";
import { haveObs } from "../tests/helpers/obs.ts";
import { percentile } from "./chat-load.ts";
import type { TableRow } from "./table.ts";

/**
 * Actions' trigger latency (issue 37, `npm run bench`'s "actions" row): a raid from the Twitch
 * simulator's EventSub socket through cuebot's live layer, the alert trigger, the runner and cuebot's
 * obs-websocket connection to OBS, timed from the emit to OBS announcing the source hidden
 * (SceneItemEnableStateChanged, heard by a second client of the same OBS). cuebot's runtime runs in
 * this process (tests/helpers/actions.ts); every hop is a real socket. Against the OBS simulator, and
 * a real OBS 29.0.2 where installed. `bun bench/action-latency.ts [--samples 200]`.
 */

export const ACTION_TARGETS = { p99Ms: 1000 } as const;

async function latencies(kind: "real" | "simulator", samples: number): Promise<number[]> {
  const obs = await startTestObs(kind);
  const h = await startActionsHarness(obs);
  try {
    const { scene, text } = await h.sceneWithText();
    await h.add({
      trigger: { type: "alert", kind: "raid", min: 0, reward: null },
      steps: [{ type: "obs.source", scene, source: text, visible: false }],
    });
    const { sceneItemId } = await h.reader.call("GetSceneItemId", { sceneName: scene, sourceName: text });
    const hidden = () =>
      new Promise<number>((resolve) => {
        const heard = (event: { sceneName: string; sceneItemEnabled: boolean }) => {
          if (event.sceneName !== scene || event.sceneItemEnabled) return;
          h.reader.off("SceneItemEnableStateChanged", heard);
          resolve(performance.now());
        };
        h.reader.on("SceneItemEnableStateChanged", heard);
      });
    const times: number[] = [];
    for (let i = 0; i < samples; i++) {
      await h.reader.call("SetSceneItemEnabled", { sceneName: scene, sceneItemId, sceneItemEnabled: true });
      await Bun.sleep(20);
      const done = hidden();
      const started = performance.now();
      await h.emit("raid", { viewers: 42 });
      times.push((await done) - started);
    }
    return times.sort((a, b) => a - b);
  } finally {
    await h.stop();
    await obs.stop();
  }
}

function row(kind: string, times: readonly number[]): TableRow {
  const p50 = percentile(times, 50);
  const p99 = percentile(times, 99);
  const met = p99 <= ACTION_TARGETS.p99Ms ? "met" : "MISSED";
  return {
    bench: "actions",
    measure: `raid → OBS request (alert trigger, ${kind})`,
    value: `${p50.toFixed(1)} ms`,
    note: `p50; p99 ${p99.toFixed(1)} ms over ${times.length} raids; target: a trigger starts within 1 s, p99 ≤ ${ACTION_TARGETS.p99Ms} ms ${met}`,
  };
}

export async function actionLatencyRows(samples: number): Promise<TableRow[]> {
  const rows = [row("OBS simulator", await latencies("simulator", samples))];
  if (haveObs) rows.push(row("real OBS 29.0.2", await latencies("real", samples)));
  return rows;
}

if (import.meta.main) {
  const flag = process.argv.indexOf("--samples");
  const samples = flag === -1 ? 200 : Number(process.argv[flag + 1]);
  const { formatTable } = await import("./table.ts");
  console.log(formatTable(await actionLatencyRows(samples)));
  process.exit(0);
}
