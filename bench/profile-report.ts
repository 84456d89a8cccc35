import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Prints where a CPU profile (Bun's `--cpu-prof`) spent its time: self time, then inclusive, as
 * shares of the samples. Each sample counts once: Bun takes samples only while the JavaScript thread
 * runs, and a sample's time delta also holds the wait before it (idle gaps of seconds at rest), so
 * weighting by the deltas credits waiting to whatever ran next.
 * `bun bench/profile-report.ts FILE.cpuprofile [--last SECONDS]` reports a profile kept on disk (or
 * the seconds before its final one only: the chat bench's last rate is about 11 s).
 */

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function label(node: ProfileNode): string {
  const { functionName, url, lineNumber, columnNumber } = node.callFrame;
  const file = url.split("/").pop() || url || "native";
  return `${functionName || "(anonymous)"} ${file}:${lineNumber + 1}:${columnNumber + 1}`;
}

/**
 * The profile's samples, or those of the `seconds` before its final one (the last rate of the chat
 * bench, say; the final second is the process stopping).
 */
function samplesOf(profile: CpuProfile, seconds?: number): number[] {
  if (seconds === undefined) return profile.samples;
  const stamps: number[] = [];
  let at = 0;
  for (const dt of profile.timeDeltas) {
    at += dt;
    stamps.push(at);
  }
  const to = (stamps.at(-1) ?? 0) - 1e6;
  const from = to - seconds * 1e6;
  return profile.samples.filter((_, i) => stamps[i]! >= from && stamps[i]! < to);
}

export function report(profile: CpuProfile, lastSeconds?: number): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<number, number>();
  const samples = samplesOf(profile, lastSeconds);
  for (const id of samples) self.set(id, (self.get(id) ?? 0) + 1);
  const total = samples.length;
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
  console.log(
    `\n${total} samples${lastSeconds === undefined ? "" : ` in the ${lastSeconds} s before the last`}`,
  );
  print("self time", selfByLabel, 45);
  print("inclusive time", inclusiveByLabel, 45);
}

/** Bun's CPU profiler, writing into a new folder: the environment that turns it on, and the folder. */
export function profiler(): { env: Record<string, string>; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), "cuebot-profile-"));
  return { env: { BUN_OPTIONS: `--cpu-prof --cpu-prof-interval=100 --cpu-prof-dir=${dir}` }, dir };
}

/** Reports the profile a process run with `profiler()`'s environment wrote into `dir`. */
export function printProfile(who: string, dir: string): void {
  const file = readdirSync(dir).find((name) => name.endsWith(".cpuprofile"));
  if (!file) throw new Error(`no profile was written in ${dir}`);
  console.log(`\n${who}'s profile: ${join(dir, file)}`);
  report(JSON.parse(readFileSync(join(dir, file), "utf8")) as CpuProfile);
}

if (import.meta.main) {
  const last = process.argv.indexOf("--last");
  const profile = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as CpuProfile;
  report(profile, last === -1 ? undefined : Number(process.argv[last + 1]));
}
