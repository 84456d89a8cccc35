import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Which `cuebot serve` processes run on a data folder, so that a second one started by mistake (or
 * without the Redis the first one uses) is refused instead of silently splitting the limits,
 * cooldowns, overlays and chat in two. One small file per instance under `<data dir>/run/`, removed
 * when it stops; a file left by a process that died is recognised (the process is gone, or another
 * process now has its pid) and ignored.
 */

const RUN_FOLDER = "run";

export interface InstanceClaim {
  /** The folder served: the data folder itself, or its demo folder. */
  folder: "data" | "demo";
  /** The Redis URL the instance shares its state through, or null. */
  redisUrl: string | null;
}

interface InstanceRecord {
  pid: number;
  /** The process's start time (Linux /proc), to tell a reused pid apart. */
  startTicks: string | null;
  folder: "data" | "demo";
  /** A fingerprint of the Redis URL (never the URL: it may hold a password), or null. */
  redis: string | null;
  startedAt: number;
}

export class InstanceConflictError extends Error {}

export interface RegisteredInstance {
  release(): void;
}

function startTicks(pid: number): string | null {
  try {
    // Field 22 of /proc/<pid>/stat, after the command name in parentheses (which may hold spaces).
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

function alive(record: InstanceRecord): boolean {
  try {
    process.kill(record.pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to someone else; anything else: it is gone.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const ticks = startTicks(record.pid);
  return record.startTicks === null || ticks === null || ticks === record.startTicks;
}

function fingerprint(url: string | null): string | null {
  return url ? new Bun.CryptoHasher("sha256").update(url.trim()).digest("hex").slice(0, 16) : null;
}

/** A running server of the folder, as `cuebot doctor` reports it. */
export interface RunningInstance {
  pid: number;
  folder: "data" | "demo";
  withRedis: boolean;
  startedAt: number;
}

/** The `cuebot serve` processes running on `dataDir` now (files of dead ones are skipped). */
export function runningInstances(dataDir: string): RunningInstance[] {
  const runDir = join(dataDir, RUN_FOLDER);
  let names: string[];
  try {
    names = readdirSync(runDir);
  } catch {
    return [];
  }
  const found: RunningInstance[] = [];
  for (const name of names) {
    if (!/^serve-\d+\.json$/.test(name)) continue;
    try {
      const record = JSON.parse(readFileSync(join(runDir, name), "utf8")) as InstanceRecord;
      if (!alive(record)) continue;
      found.push({
        pid: record.pid,
        folder: record.folder,
        withRedis: record.redis !== null,
        startedAt: record.startedAt,
      });
    } catch {
      // a file being written or removed right now
    }
  }
  return found.sort((a, b) => a.startedAt - b.startedAt);
}

function describe(record: InstanceRecord): string {
  return `pid ${record.pid}, ${record.redis ? "with Redis" : "without Redis"}`;
}

/**
 * Registers this process as a server of `dataDir`. Several may serve one folder only when they all
 * share the same Redis; otherwise this throws InstanceConflictError saying which promise would break.
 * When the run folder cannot be written (the data folder is unusable), nothing is registered: starting
 * up reports that problem itself.
 */
export function registerInstance(dataDir: string, claim: InstanceClaim): RegisteredInstance {
  const runDir = join(dataDir, RUN_FOLDER);
  const own: InstanceRecord = {
    pid: process.pid,
    startTicks: startTicks(process.pid),
    folder: claim.folder,
    redis: fingerprint(claim.redisUrl),
    startedAt: Date.now(),
  };
  const ownFile = join(runDir, `serve-${process.pid}.json`);
  try {
    mkdirSync(runDir, { recursive: true, mode: 0o700 });
    // Written first, then the others read: two instances starting at once both see each other.
    writeFileSync(ownFile, JSON.stringify(own), { mode: 0o600 });
  } catch {
    return { release() {} };
  }
  const release = () => rmSync(ownFile, { force: true });
  for (const name of readdirSync(runDir)) {
    if (!/^serve-\d+\.json$/.test(name) || name === `serve-${process.pid}.json`) continue;
    let other: InstanceRecord;
    try {
      other = JSON.parse(readFileSync(join(runDir, name), "utf8")) as InstanceRecord;
    } catch {
      continue;
    }
    if (!alive(other)) {
      rmSync(join(runDir, name), { force: true });
      continue;
    }
    if (other.folder !== own.folder) continue;
    if (own.folder === "demo") {
      release();
      throw new InstanceConflictError(
        `another cuebot serve --demo (${describe(other)}) is running on this data folder; starting another would wipe its demo data. Stop it first, or use another --data-dir`,
      );
    }
    if (own.redis === null || other.redis !== own.redis) {
      release();
      const needed = own.redis === null && other.redis === null ? "" : " (the same Redis URL)";
      throw new InstanceConflictError(
        `another cuebot serve (${describe(other)}) is running on this data folder; several instances on one data folder must all use the same --redis-url${needed}, or their limits, cooldowns, overlays and chat would not be shared. Stop it, or start both with --redis-url`,
      );
    }
  }
  return { release };
}
