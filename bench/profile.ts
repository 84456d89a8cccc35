import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFixture, startBinary } from "./fixture.ts";
import { type CpuProfile, report } from "./profile-report.ts";
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
