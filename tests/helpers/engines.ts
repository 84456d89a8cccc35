/**
 * Real PostgreSQL and Redis servers for tests, from the Debian packages (`.ci/run` installs them):
 * throw-away instances on loopback in temporary folders, a known free port each, stopped when the test
 * process ends however it ends. One PostgreSQL per test process holds a template database migrated
 * once; each test file gets its own database cloned from it (`CREATE DATABASE … TEMPLATE`, ~25 ms).
 * Redis tests share one server and isolate themselves by key prefix, except those that stop the
 * server, which start their own. See reference/scale-out.md §8.
 *
 * When the binaries are missing, `postgresAvailable` / `redisAvailable` are false and the suites using
 * them skip with a message saying what to install.
 */
import { spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL, type Subprocess } from "bun";
import { migratePg } from "../../db/pg/migrate.ts";

const PG_ROOT = "/usr/lib/postgresql";
const PG_MIN_MAJOR = 15;
const TEMPLATE_DB = "cuebot_tmpl";

/** The newest installed PostgreSQL ≥ 15's bin folder, or null. */
function findPostgresBin(): string | null {
  if (!existsSync(PG_ROOT)) return null;
  const majors = readdirSync(PG_ROOT)
    .map(Number)
    .filter((n) => Number.isInteger(n) && n >= PG_MIN_MAJOR)
    .sort((a, b) => b - a);
  for (const major of majors) {
    const bin = join(PG_ROOT, String(major), "bin");
    if (existsSync(join(bin, "initdb")) && existsSync(join(bin, "pg_ctl"))) return bin;
  }
  return null;
}

const PG_BIN = findPostgresBin();
const REDIS_SERVER = Bun.which("redis-server");

export const postgresAvailable = PG_BIN !== null;
export const redisAvailable = REDIS_SERVER !== null;

/** Says once, in the test output, why engine tests are skipped. */
export function explainSkip(engine: "postgres" | "redis"): void {
  if (engine === "postgres" && !postgresAvailable) {
    console.warn(
      `skipping PostgreSQL tests: no PostgreSQL ≥ ${PG_MIN_MAJOR} under ${PG_ROOT} (apt-get install postgresql)`,
    );
  }
  if (engine === "redis" && !redisAvailable) {
    console.warn("skipping Redis tests: redis-server is not on PATH (apt-get install redis-server)");
  }
}

/** A loopback TCP port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Cleanups of every engine still running, run synchronously by `stopAllEngines`. */
const cleanups = new Set<() => void>();
let signalsHooked = false;

/**
 * Stops every engine this process started. `bun test` emits no process "exit" event, so the test
 * preload (tests/helpers/preload.ts) calls this after the last file; scripts get it on exit and on
 * SIGINT/SIGTERM. A test process killed outright is covered by each engine's watchdog.
 */
export function stopAllEngines(): void {
  for (const cleanup of cleanups) {
    try {
      cleanup();
    } catch {
      // best effort: the other engines still get stopped
    }
  }
  cleanups.clear();
}

/** Runs `cleanup` when this process ends (stopAllEngines); returns a function that forgets it. */
export function onExit(cleanup: () => void): () => void {
  if (!signalsHooked) {
    signalsHooked = true;
    process.once("exit", stopAllEngines);
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      process.once(signal, () => {
        stopAllEngines();
        process.exit(signal === "SIGINT" ? 130 : 143);
      });
    }
  }
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

/**
 * A detached shell that runs `cleanup` once this process is gone (even after SIGKILL), so no engine
 * outlives the test run that started it. Returns a function that dismisses it.
 */
export function watchdog(cleanup: string): () => void {
  const proc = Bun.spawn(
    ["sh", "-c", `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; ${cleanup}`],
    { stdin: "ignore", stdout: "ignore", stderr: "ignore", detached: true },
  );
  proc.unref();
  return () => {
    if (proc.exitCode === null) proc.kill("SIGKILL");
  };
}

export const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

// ---------------------------------------------------------------------------------------------- PostgreSQL

/** initdb refuses to run as root: as root, the server runs as the `postgres` system user. */
const runAsPostgres = process.getuid?.() === 0;

function postgresUid(): { uid: number; gid: number } {
  const read = (flag: string) => {
    const out = spawnSync("id", [flag, "postgres"], { encoding: "utf8" });
    if (out.status !== 0)
      throw new Error("running as root needs the `postgres` user (apt-get install postgresql)");
    return Number(out.stdout.trim());
  };
  return { uid: read("-u"), gid: read("-g") };
}

function pgCommand(tool: string, args: string[]): string[] {
  const path = join(PG_BIN!, tool);
  return runAsPostgres ? ["runuser", "-u", "postgres", "--", path, ...args] : [path, ...args];
}

function runPgTool(tool: string, args: string[]): void {
  const [command, ...rest] = pgCommand(tool, args);
  const out = spawnSync(command!, rest, { encoding: "utf8" });
  if (out.status !== 0) throw new Error(`${tool} failed (${out.status}): ${out.stderr || out.stdout}`);
}

export interface PostgresServer {
  port: number;
  /** The superuser URL of the `postgres` maintenance database. */
  adminUrl: string;
  /** A URL of database `name` on this server. */
  urlOf(name: string): string;
  /** Stops the server; its folder is removed. */
  stop(): void;
  /** Stops the server at once (`pg_ctl stop -m immediate`), keeping its data: an outage. */
  halt(): void;
  /** Starts a halted server again on the same port and data. */
  resume(): void;
}

/**
 * Starts a fresh PostgreSQL cluster and waits until it accepts connections. Throw-away data: fsync
 * off, and commits are acknowledged before they are written (`synchronous_commit=off`) unless
 * `durable`, which an outage test needs to show that no acknowledged write is lost by `halt()`.
 */
export async function startPostgres(settings: { durable?: boolean } = {}): Promise<PostgresServer> {
  if (!PG_BIN) throw new Error("PostgreSQL is not installed");
  const dir = mkdtempSync(join(tmpdir(), "cuebot-pg-"));
  if (runAsPostgres) {
    const { uid, gid } = postgresUid();
    chownSync(dir, uid, gid);
  }
  const data = join(dir, "data");
  const port = await freePort();
  runPgTool("initdb", [
    "-D",
    data,
    "-U",
    "cuebot",
    "--auth=trust",
    "--no-sync",
    "-E",
    "UTF8",
    "--locale=C.UTF-8",
  ]);
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses=127.0.0.1",
    "-c fsync=off",
    `-c synchronous_commit=${settings.durable ? "on" : "off"}`,
    "-c full_page_writes=off",
    "-c max_connections=200",
  ].join(" ");
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    forget();
    dismiss();
    try {
      runPgTool("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
    } catch {
      // already down: killed by a test, or never fully started
      const pidFile = join(data, "postmaster.pid");
      if (existsSync(pidFile)) {
        const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
        if (pid > 0) {
          try {
            process.kill(pid, "SIGKILL");
          } catch {
            // gone
          }
        }
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const forget = onExit(stop);
  const dismiss = watchdog(
    `${pgCommand("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]).map(quote).join(" ")}; rm -rf ${quote(dir)}`,
  );
  try {
    runPgTool("pg_ctl", ["-D", data, "-l", join(dir, "log"), "-w", "-o", options, "start"]);
  } catch (error) {
    const log = existsSync(join(dir, "log")) ? readFileSync(join(dir, "log"), "utf8") : "";
    stop();
    throw new Error(`${(error as Error).message}\n${log}`);
  }
  const urlOf = (name: string) => `postgres://cuebot@127.0.0.1:${port}/${name}`;
  const halt = () => runPgTool("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
  const resume = () =>
    runPgTool("pg_ctl", ["-D", data, "-l", join(dir, "log"), "-w", "-o", options, "start"]);
  return { port, adminUrl: urlOf("postgres"), urlOf, stop, halt, resume };
}

let sharedPostgres: Promise<PostgresServer> | null = null;
let databaseCounter = 0;

/** The process-wide server with the migrated template database, started on first use. */
function postgresWithTemplate(): Promise<PostgresServer> {
  sharedPostgres ??= (async () => {
    const server = await startPostgres();
    const admin = new SQL({ url: server.adminUrl, max: 1 });
    try {
      await admin.unsafe(`CREATE DATABASE ${TEMPLATE_DB}`);
    } finally {
      await admin.close();
    }
    const template = new SQL({ url: server.urlOf(TEMPLATE_DB), max: 1 });
    try {
      await migratePg(template);
    } finally {
      // CREATE DATABASE … TEMPLATE needs the template to have no connections.
      await template.close();
    }
    return server;
  })();
  return sharedPostgres;
}

export interface TestDatabase {
  name: string;
  url: string;
  server: PostgresServer;
}

/**
 * A fresh database for one test file. `migrated` (the default) clones the template that already has
 * every migration; `migrated: false` gives an empty database (for migrator tests).
 */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const server = await postgresWithTemplate();
  const name = `t_${process.pid}_${++databaseCounter}`;
  const admin = new SQL({ url: server.adminUrl, max: 1 });
  try {
    const template = options.migrated === false ? "template0" : TEMPLATE_DB;
    await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.close();
  }
  return { name, url: server.urlOf(name), server };
}

/** Drops a test database (connections to it are terminated first). */
export async function dropTestDatabase(database: TestDatabase): Promise<void> {
  const admin = new SQL({ url: database.server.adminUrl, max: 1 });
  try {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${database.name} WITH (FORCE)`);
  } finally {
    await admin.close();
  }
}

// ----------------------------------------------------------------------------------------------- Redis

export interface RedisServer {
  port: number;
  url: string;
  /** Kills the server (SIGKILL) and waits for it to be gone; `restart` brings it back on the same port. */
  kill(): Promise<void>;
  restart(): Promise<void>;
  /** Freezes the server (SIGSTOP): connections stay open but nothing is answered; `resume` thaws it. */
  pause(): void;
  resume(): void;
  /** Stops it for good; its folder is removed. */
  stop(): Promise<void>;
}

async function waitForPort(port: number, proc: Subprocess, log: () => string): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt++) {
    if (proc.exitCode !== null) throw new Error(`redis-server exited (${proc.exitCode}): ${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      Bun.connect({
        hostname: "127.0.0.1",
        port,
        socket: {
          open(socket) {
            socket.end();
            resolve(true);
          },
          data() {},
          connectError() {
            resolve(false);
          },
        },
      }).catch(() => resolve(false));
    });
    if (open) return;
    await Bun.sleep(10);
  }
  throw new Error(`redis-server did not open port ${port}: ${log()}`);
}

/** Starts a redis-server without persistence on a free loopback port, in its own temporary folder. */
export async function startRedis(): Promise<RedisServer> {
  if (!REDIS_SERVER) throw new Error("redis-server is not installed");
  const dir = mkdtempSync(join(tmpdir(), "cuebot-redis-"));
  const port = await freePort();
  const logFile = join(dir, "redis.log");
  const log = () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : "");
  let proc: Subprocess | null = null;
  let dismissWatchdog = () => {};
  const launch = async () => {
    const started = Bun.spawn(
      [
        REDIS_SERVER,
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--dir",
        dir,
        "--logfile",
        logFile,
        "--loglevel",
        "warning",
      ],
      { stdin: "ignore", stdout: "ignore", stderr: "ignore" },
    );
    // A script that forgets to stop it may still exit: the exit hook and the watchdog clean up.
    started.unref();
    proc = started;
    dismissWatchdog = watchdog(`kill -9 ${started.pid} 2>/dev/null; rm -rf ${quote(dir)}`);
    await waitForPort(port, started, log);
  };
  const kill = async () => {
    const current = proc;
    proc = null;
    dismissWatchdog();
    if (!current || current.exitCode !== null) return;
    current.kill("SIGKILL");
    await current.exited;
  };
  const forget = onExit(() => {
    const current = proc as Subprocess | null;
    dismissWatchdog();
    if (current && current.exitCode === null) current.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });
  await launch();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill,
    restart: launch,
    pause: () => (proc as Subprocess | null)?.kill("SIGSTOP"),
    resume: () => (proc as Subprocess | null)?.kill("SIGCONT"),
    async stop() {
      await kill();
      forget();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let sharedRedis: Promise<RedisServer> | null = null;
let prefixCounter = 0;

/** The process-wide Redis server, started on first use; isolate with `redisKeyPrefix()`. */
export function sharedRedisServer(): Promise<RedisServer> {
  sharedRedis ??= startRedis();
  return sharedRedis;
}

/** A key prefix no other test in this process uses. */
export function redisKeyPrefix(label = "t"): string {
  return `test:${process.pid}:${label}:${++prefixCounter}:`;
}
