import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFixture, startBinary } from "./fixture.ts";
import { HOT_ROWS, type HotRow, prepareRow, streamersFor } from "./rows.ts";
import { wrk } from "./wrk.ts";

/**
 * Where a hot path's time goes: `bun bench/profile.ts refused|game|bot|healthz [seconds]` starts the built
 * binary with Bun's CPU profiler on, drives one of the bench's rows at it with wrk, and prints the
 * functions with the most self time, then the busiest call paths. The .cpuprofile stays on disk for
 * a closer look (Chrome DevTools opens it). Build first (`npm run build`).
 */

const row = (process.argv[2] ?? "game") as HotRow;
const seconds = Number(process.argv[3] ?? 5);
if (!HOT_ROWS.includes(row)) throw new Error(`usage: bench/profile.ts ${HOT_ROWS.join("|")} [s]`);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function label(node: ProfileNode): string {
  const { functionName, url, lineNumber, columnNumber } = node.callFrame;
  const file = url.split("/").pop() || url || "native";
  return `${functionName || "(anonymous)"} ${file}:${lineNumber + 1}:${columnNumber + 1}`;
}

function report(profile: CpuProfile): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<number, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    self.set(id, (self.get(id) ?? 0) + dt);
    total += dt;
  });
  const selfByLabel = new Map<string, number>();
  const inclusiveByLabel = new Map<string, number>();
  for (const [id, time] of self) {
    selfByLabel.set(label(byId.get(id)!), (selfByLabel.get(label(byId.get(id)!)) ?? 0) + time);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = label(byId.get(at)!);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusiveByLabel.set(name, (inclusiveByLabel.get(name) ?? 0) + time);
    }
  }
  const print = (title: string, map: Map<string, number>, count: number) => {
    console.log(`\n${title}`);
    for (const [name, time] of [...map].sort((a, b) => b[1] - a[1]).slice(0, count)) {
      console.log(`${((100 * time) / total).toFixed(1).padStart(6)} %  ${name}`);
    }
  };
  print("self time", selfByLabel, 45);
  print("inclusive time", inclusiveByLabel, 45);
}

const fixture = await createFixture(streamersFor(row));
const profileDir = mkdtempSync(join(tmpdir(), "cuebot-profile-"));
const server = await startBinary(
  {
    dataDir: fixture.dataDir,
    env: { ...fixture.env, BUN_OPTIONS: `--cpu-prof --cpu-prof-interval=100 --cpu-prof-dir=${profileDir}` },
  },
  { settled: true },
);
try {
  const { url, script } = await prepareRow(row, fixture, server.url);
  const result = await wrk({ url, script, durationSeconds: seconds });
  console.log(`${row}: ${Math.round(result.rps)} req/s, p99 ${result.p99Ms.toFixed(2)} ms (profiler on)`);
} finally {
  await server.stop();
  await fixture.stop();
}
const file = readdirSync(profileDir).find((name) => name.endsWith(".cpuprofile"));
if (!file) throw new Error(`no profile was written in ${profileDir}`);
console.log(`profile: ${join(profileDir, file)}`);
report(JSON.parse(readFileSync(join(profileDir, file), "utf8")) as CpuProfile);
