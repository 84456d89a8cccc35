// Who serves a data folder: a second instance without a shared Redis is refused; files left by
// instances that are gone — on this host (pid gone) or another one (heartbeat stopped) — are not.
import { afterEach, describe, expect, test } from "bun:test";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import {
  InstanceConflictError,
  registerInstance,
  runningInstances,
} from "../../../server/core/instance-registry.ts";
import { Scratch } from "../../helpers/cli.ts";

const scratch = new Scratch();
afterEach(() => scratch.cleanup());
const dataDir = () => scratch.dir("cuebot-unit-");

/** A record as another instance would have written it. */
function foreign(
  dir: string,
  fields: {
    host: string;
    pid: number;
    redis?: string | null;
    ageMs?: number;
    pidSpace?: string;
    startTicks?: string;
  },
) {
  const id = crypto.randomUUID();
  mkdirSync(join(dir, "run"), { recursive: true });
  const file = join(dir, "run", `serve-${id}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      id,
      host: fields.host,
      pidSpace: fields.pidSpace ?? null,
      pid: fields.pid,
      startTicks: fields.startTicks ?? null,
      folder: "data",
      redis: fields.redis ?? null,
      startedAt: Date.now() - (fields.ageMs ?? 0),
    }),
  );
  if (fields.ageMs) {
    const then = new Date(Date.now() - fields.ageMs);
    utimesSync(file, then, then);
  }
  return file;
}

function ownPidSpace(): string {
  const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  return `${boot}/${readlinkSync("/proc/self/ns/pid")}`;
}

describe("instance registry", () => {
  test("a container sharing this host name but not its pids is judged by its heartbeat, not by our pid 1", () => {
    const dir = dataDir();
    // Its pid 1 started at another time than the pid 1 here: a pid check would call it dead.
    foreign(dir, { host: hostname(), pid: 1, pidSpace: "another-boot/pid:[4026532000]", startTicks: "7" });
    expect(() => registerInstance(dir, { folder: "data", redisUrl: null })).toThrow(
      "another cuebot serve (pid 1, without Redis)",
    );
  });

  test("an instance in another container (its own pid 1) is seen by its heartbeat and refuses a second without Redis", () => {
    const dir = dataDir();
    foreign(dir, { host: "cuebot-1", pid: 1 });
    expect(() => registerInstance(dir, { folder: "data", redisUrl: null })).toThrow(InstanceConflictError);
    expect(() => registerInstance(dir, { folder: "data", redisUrl: null })).toThrow(
      "another cuebot serve (pid 1 on cuebot-1, without Redis) is running on this data folder",
    );
    expect(runningInstances(dir)).toMatchObject([{ pid: 1, host: "cuebot-1", withRedis: false }]);
  });

  test("this container's previous run (same host name, our pid, another pid namespace) does not block a restart", () => {
    const dir = dataDir();
    const previous = foreign(dir, {
      host: hostname(),
      pid: process.pid,
      pidSpace: "another-boot/pid:[4026532999]",
      startTicks: "7",
    });
    const mine = registerInstance(dir, { folder: "data", redisUrl: null });
    expect(existsSync(previous)).toBe(false);
    mine.release();
  });

  test("a file whose heartbeat stopped, or whose process is gone from this host, is ignored and removed", () => {
    const dir = dataDir();
    const stale = foreign(dir, { host: "cuebot-1", pid: 1, ageMs: 60_000 });
    const gone = foreign(dir, { host: hostname(), pid: 2 ** 22 + 12345, pidSpace: ownPidSpace() });
    const mine = registerInstance(dir, { folder: "data", redisUrl: null });
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(gone)).toBe(false);
    expect(runningInstances(dir)).toMatchObject([{ pid: process.pid }]);
    mine.release();
    expect(readdirSync(join(dir, "run"))).toEqual([]);
  });

  test("instances with the same Redis share a folder; a different Redis is refused", () => {
    const dir = dataDir();
    const first = registerInstance(dir, { folder: "data", redisUrl: "redis://127.0.0.1:6379" });
    foreign(dir, { host: "cuebot-2", pid: 1, redis: null });
    expect(() => registerInstance(dir, { folder: "data", redisUrl: "redis://127.0.0.1:6379" })).toThrow(
      "(pid 1 on cuebot-2, without Redis)",
    );
    first.release();
  });
});

describe("where an instance listens", () => {
  test("recorded once it listens (cuebot doctor asks it there); unknown before, and for an older cuebot's record", () => {
    const dir = dataDir();
    const own = registerInstance(dir, { folder: "data", redisUrl: null });
    expect(runningInstances(dir).map((i) => i.url)).toEqual([null]);
    expect(own.listening("http://127.0.0.1:41234")).toBe(true);
    expect(runningInstances(dir).map((i) => i.url)).toEqual(["http://127.0.0.1:41234"]);
    own.release();
    foreign(dir, { host: "elsewhere", pid: 4242 });
    expect(runningInstances(dir).map((i) => i.url)).toEqual([null]);
  });
});
