// The footprint rows of `npm run bench` (issue 26 part 3): the binary's size, and what `serve` holds and
// spends on an empty data folder with nobody connected. Read from /proc, so Linux only. Also runnable
// alone: `bun bench/footprint.ts [--binary PATH] [--seconds 30]` prints the rows for one build.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY, freePort } from "./fixture.ts";
import type { TableRow } from "./table.ts";

export const FOOTPRINT_TARGETS = {
  /** RSS 5 s after start, nobody connected, MB. */
  idleRssMb: 60,
  /** Idle CPU counted as ≈ 0: at most this share of one core… */
  idleCpuShare: 0.001,
  /**
   * …and at most this many wake-ups (context switches of all its threads) a second. Not 0: Bun's own
   * GC timer (every 30 s once idle, with its collector thread) and its allocator's scavenger make
   * ~0.8 a second in any idle cuebot (measured with cuebot's only idle timer, the instance heartbeat
   * every 5 s, switched off); the heartbeat adds ~0.3. Before issue 26: ~114 a second.
   */
  idleWakeupsPerSecond: 2,
} as const;

/** How long after /healthz answers the idle RSS is read, ms (the start-up work has finished). */
const SETTLE_MS = 5_000;
/**
 * How long after start the idle span begins, ms. Bun's own GC timer (one per JS thread) ticks every
 * second until the heap has been quiet for 30 ticks, then every 30 s: counting from the start would
 * measure that warm-down, not the idle server.
 */
const IDLE_FROM_MS = 40_000;
/** The idle span CPU and wake-ups are counted over, s. */
export const IDLE_SPAN_S = 30;
/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in these ticks. */
const TICKS_PER_SECOND = 100;

/** Resident set size of a process, MB (VmRSS: its anonymous memory and the file pages it touched). */
export function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return kb ? Number(kb[1]) / 1024 : Number.NaN;
}

/** CPU time of a process and all its threads so far, ms (utime + stime). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name may hold spaces: the fields after it start past the last ')'.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/**
 * Context switches of each of the process's threads so far, by thread id: each is a thread going to
 * sleep and being woken (voluntary) or preempted. Idle, that counts the timers and polls that wake it.
 */
export function contextSwitches(pid: number): Map<string, number> {
  const byThread = new Map<string, number>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const status = readFileSync(`/proc/${pid}/task/${task}/status`, "utf8");
      const voluntary = Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      const preempted = Number(/^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      byThread.set(task, voluntary + preempted);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return byThread;
}

/** Context switches between two snapshots; a thread that started meanwhile counts from zero. */
export function switchesBetween(before: Map<string, number>, after: Map<string, number>): number {
  let total = 0;
  for (const [task, count] of after) total += count - (before.get(task) ?? 0);
  return total;
}

export interface IdleFootprint {
  binaryMb: number;
  /** RSS SETTLE_MS after /healthz first answered, MB. */
  idleRssMb: number;
  /** CPU spent over the idle span, ms. */
  idleCpuMs: number;
  /** Context switches a second over the idle span. */
  wakeupsPerSecond: number;
  spanSeconds: number;
}

async function waitHealthy(url: string, proc: { exitCode: number | null }): Promise<void> {
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`serve exited (${proc.exitCode}) before /healthz answered`);
    try {
      const res = await fetch(`${url}/healthz`);
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await Bun.sleep(20);
  }
}

/**
 * `serve` on a fresh, empty data folder with a clean environment (no credentials: nothing to log in to,
 * nothing to connect), then left alone: its RSS after SETTLE_MS, then its CPU and wake-ups over
 * `spanSeconds` from IDLE_FROM_MS after start. The one /healthz request is the only request it ever sees.
 */
export async function measureIdle(binary = BINARY, spanSeconds = IDLE_SPAN_S): Promise<IdleFootprint> {
  const dataDir = mkdtempSync(join(tmpdir(), "cuebot-footprint-"));
  const port = freePort();
  const proc = Bun.spawn([binary, "serve", "--data-dir", dataDir, "--port", String(port), "--log", "warn"], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dataDir },
    stdout: "ignore",
    stderr: "ignore",
  });
  try {
    await waitHealthy(`http://127.0.0.1:${port}`, proc);
    await Bun.sleep(SETTLE_MS);
    const idleRssMb = rssMb(proc.pid);
    await Bun.sleep(IDLE_FROM_MS - SETTLE_MS);
    const cpuBefore = cpuMs(proc.pid);
    const switchesBefore = contextSwitches(proc.pid);
    await Bun.sleep(spanSeconds * 1000);
    return {
      binaryMb: statSync(binary).size / 1024 / 1024,
      idleRssMb,
      idleCpuMs: cpuMs(proc.pid) - cpuBefore,
      wakeupsPerSecond: switchesBetween(switchesBefore, contextSwitches(proc.pid)) / spanSeconds,
      spanSeconds,
    };
  } finally {
    proc.kill("SIGTERM");
    await proc.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const verdict = (pass: boolean) => (pass ? "met" : "MISSED");

/** The footprint rows of the bench table, from one idle measurement. */
export function footprintRows(idle: IdleFootprint, bench = "dist/cuebot"): TableRow[] {
  const share = idle.idleCpuMs / (idle.spanSeconds * 1000);
  const cpuMet =
    share <= FOOTPRINT_TARGETS.idleCpuShare &&
    idle.wakeupsPerSecond <= FOOTPRINT_TARGETS.idleWakeupsPerSecond;
  return [
    { bench, measure: "binary size", value: `${idle.binaryMb.toFixed(1)} MB`, note: "no target" },
    {
      bench,
      measure: "RSS idle (empty data folder, 5 s after start)",
      value: `${idle.idleRssMb.toFixed(0)} MB`,
      note: `nobody connected; target ≤ ${FOOTPRINT_TARGETS.idleRssMb} MB ${verdict(idle.idleRssMb <= FOOTPRINT_TARGETS.idleRssMb)}`,
    },
    {
      bench,
      measure: `CPU idle (${idle.spanSeconds} s from ${IDLE_FROM_MS / 1000} s after start)`,
      value: `${idle.idleCpuMs.toFixed(0)} ms`,
      note: `${(share * 100).toFixed(2)} % of a core, ${idle.wakeupsPerSecond.toFixed(1)} wake-ups/s; target ≈ 0 (≤ ${FOOTPRINT_TARGETS.idleCpuShare * 100} % of a core and ≤ ${FOOTPRINT_TARGETS.idleWakeupsPerSecond} wake-ups/s) ${verdict(cpuMet)}`,
    },
  ];
}

if (import.meta.main) {
  const secondsFlag = process.argv.indexOf("--seconds");
  const seconds = secondsFlag === -1 ? IDLE_SPAN_S : Number(process.argv[secondsFlag + 1]);
  const { formatTable } = await import("./table.ts");
  console.log(formatTable(footprintRows(await measureIdle(BINARY, seconds), BINARY)));
}
