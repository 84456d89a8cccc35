import {
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";

/**
 * Which `cuebot serve` processes run on a data folder, so that a second one started by mistake (or
 * without the Redis the first one uses) is refused instead of silently splitting the limits,
 * cooldowns, overlays and chat in two. One small file per instance under `<data dir>/run/`, removed
 * when it stops and touched every few seconds while it runs. A file left by a process that died is
 * recognised and ignored: by a heartbeat older than HEARTBEAT_STALE_MS anywhere, and at once by its
 * pid and start time when it ran in this process's pid namespace (same host, same container).
 */

const RUN_FOLDER = "run";
const FILE = /^serve-[0-9a-f-]{36}\.json$/;
/** How often a running instance touches its file. */
export const HEARTBEAT_MS = 5_000;
/** A file from another host not touched for this long belongs to an instance that is gone. */
const HEARTBEAT_STALE_MS = 20_000;

export interface InstanceClaim {
  /** The folder served: the data folder itself, or its demo folder. */
  folder: "data" | "demo";
  /** The Redis URL the instance shares its state through, or null. */
  redisUrl: string | null;
}

interface InstanceRecord {
  /** Unique per instance: pids repeat across containers (each cuebot may be pid 1 in its own). */
  id: string;
  host: string;
  /** Which kernel boot and which pid namespace the pid belongs to; null where /proc does not say. */
  pidSpace: string | null;
  pid: number;
  /** The process's start time (Linux /proc), to tell a reused pid apart. */
  startTicks: string | null;
  folder: "data" | "demo";
  /** A fingerprint of the Redis URL (never the URL: it may hold a password), or null. */
  redis: string | null;
  startedAt: number;
  /** Where an admin command tells this instance that it changed the database (change-notices.ts). */
  notice?: NoticeAddress;
  /** `http://host:port` with the port really bound (`--port 0` picks one), once it listens. */
  url?: string;
}

/** A Unix socket in the run folder and the token a notice must carry (the run file is its owner's only). */
export interface NoticeAddress {
  socket: string;
  token: string;
}

/** A running server of the folder, as `cuebot doctor` reports it. */
export interface RunningInstance {
  pid: number;
  host: string;
  folder: "data" | "demo";
  withRedis: boolean;
  startedAt: number;
  /** `http://host:port` it listens on, or null before it listens (or when started by an older cuebot). */
  url: string | null;
}

export class InstanceConflictError extends Error {}

export interface RegisteredInstance {
  /** Touches the file (the heartbeat that tells other hosts this instance still runs). */
  heartbeat(): void;
  /** Records where this instance takes change notices from admin commands; false when it could not. */
  announce(notice: NoticeAddress): boolean;
  /** Records the address it listens on (`cuebot doctor` asks it there); false when it could not. */
  listening(url: string): boolean;
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

/** This process's kernel boot and pid namespace: pids compare only within one. */
function pidSpace(): string | null {
  try {
    const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    return `${boot}/${readlinkSync("/proc/self/ns/pid")}`;
  } catch {
    return null;
  }
}

function alive(record: InstanceRecord, file: string): boolean {
  let fresh: boolean;
  try {
    fresh = Date.now() - statSync(file).mtimeMs < HEARTBEAT_STALE_MS;
  } catch {
    return false;
  }
  // A heartbeat stopped long ago is a dead instance wherever it ran. Only within this pid space does
  // a pid say more (at once, after a kill -9); another container may share the host name, not pids.
  if (!fresh) return false;
  const space = pidSpace();
  if (record.host !== hostname() || space === null) return true;
  if (record.pidSpace !== space) {
    // Same host name and our own pid in another pid space: this container's previous run, restarted
    // after a crash (each run of a container is pid 1 in a new namespace), not a sibling.
    return record.pid !== process.pid;
  }
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

/** The other instances' records in the run folder, dead ones' files removed (`prune`) or skipped. */
function others(runDir: string, ownId: string | null, prune: boolean): InstanceRecord[] {
  let names: string[];
  try {
    names = readdirSync(runDir);
  } catch {
    return [];
  }
  const found: InstanceRecord[] = [];
  for (const name of names) {
    if (!FILE.test(name) || name === `serve-${ownId}.json`) continue;
    const file = join(runDir, name);
    let record: InstanceRecord;
    try {
      record = JSON.parse(readFileSync(file, "utf8")) as InstanceRecord;
    } catch {
      continue; // being written or removed right now
    }
    if (alive(record, file)) found.push(record);
    else if (prune) rmSync(file, { force: true });
  }
  return found.sort((a, b) => a.startedAt - b.startedAt);
}

/** The run folder of a data folder, where servers register and take change notices. */
export function runFolder(dataDir: string): string {
  return join(dataDir, RUN_FOLDER);
}

/**
 * Where the servers of `dataDir` (its own data, not the demo's) take change notices. A Unix socket
 * reaches a server in another container sharing the folder too; one on another machine refuses.
 */
export function noticeAddresses(dataDir: string): NoticeAddress[] {
  return others(runFolder(dataDir), null, false).flatMap((r) =>
    r.notice && r.folder === "data" ? [r.notice] : [],
  );
}

/** The `cuebot serve` processes running on `dataDir` now. */
export function runningInstances(dataDir: string): RunningInstance[] {
  return others(join(dataDir, RUN_FOLDER), null, false).map((r) => ({
    pid: r.pid,
    host: r.host,
    folder: r.folder,
    withRedis: r.redis !== null,
    startedAt: r.startedAt,
    url: r.url ?? null,
  }));
}

function describe(record: InstanceRecord): string {
  const where = record.host === hostname() ? "" : ` on ${record.host}`;
  return `pid ${record.pid}${where}, ${record.redis ? "with Redis" : "without Redis"}`;
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
    id: crypto.randomUUID(),
    host: hostname(),
    pidSpace: pidSpace(),
    pid: process.pid,
    startTicks: startTicks(process.pid),
    folder: claim.folder,
    redis: fingerprint(claim.redisUrl),
    startedAt: Date.now(),
  };
  const ownFile = join(runDir, `serve-${own.id}.json`);
  try {
    mkdirSync(runDir, { recursive: true, mode: 0o700 });
    // Written first, then the others read: two instances starting at once both see each other.
    writeFileSync(ownFile, JSON.stringify(own), { mode: 0o600 });
  } catch {
    return { heartbeat() {}, announce: () => false, listening: () => false, release() {} };
  }
  const rewrite = (): boolean => {
    try {
      // Whole or not at all: a command reading the folder meanwhile sees the old record or the new.
      writeFileSync(`${ownFile}.new`, JSON.stringify(own), { mode: 0o600 });
      renameSync(`${ownFile}.new`, ownFile);
      return true;
    } catch {
      return false;
    }
  };
  const registered: RegisteredInstance = {
    heartbeat() {
      const now = new Date();
      try {
        utimesSync(ownFile, now, now);
      } catch {
        // removed by hand: it is written again, so the others keep seeing this instance
        try {
          writeFileSync(ownFile, JSON.stringify(own), { mode: 0o600 });
        } catch {
          // the data folder is gone; the server finds out by itself
        }
      }
    },
    announce(notice) {
      own.notice = notice;
      return rewrite();
    },
    listening(url) {
      own.url = url;
      return rewrite();
    },
    release: () => rmSync(ownFile, { force: true }),
  };
  for (const other of others(runDir, own.id, true)) {
    if (other.folder !== own.folder) continue;
    if (own.folder === "demo") {
      registered.release();
      throw new InstanceConflictError(
        `another cuebot serve --demo (${describe(other)}) is running on this data folder; starting another would wipe its demo data. Stop it first, or use another --data-dir`,
      );
    }
    if (own.redis === null || other.redis !== own.redis) {
      registered.release();
      const needed = own.redis === null && other.redis === null ? "" : " (the same Redis URL)";
      throw new InstanceConflictError(
        `another cuebot serve (${describe(other)}) is running on this data folder; several instances on one data folder must all use the same --redis-url${needed}, or their limits, cooldowns, overlays and chat would not be shared. Stop it, or start both with --redis-url`,
      );
    }
  }
  return registered;
}
