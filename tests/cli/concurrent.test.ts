import { Database } from "bun:sqlite";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import {
  type CliResult,
  cleanEnv,
  initDataDir,
  Scratch,
  type ServeProcess,
  SOURCE_CLI,
  seedAccount,
} from "../helpers/cli.ts";
import { onPostgres } from "../helpers/context.ts";

/**
 * CONTRACT §3: any number of CLI commands at once, on one data folder and beside a running server,
 * each completes or exits 1 with one line; none crashes, no server stops, and the server serves the
 * last change on its next request. Before, the CLI and the server mapped SQLite's `-shm` file: opening
 * the mapping closed a descriptor of that file, which dropped the process's SQLite locks on it, and
 * six `role set` at once died of SIGBUS (exit 135), "locking protocol", or lost accounts.
 */
const scratch = new Scratch();
let cwd: string;
let dataDir: string;
const LOGINS = ["ann", "ben", "cat", "dan", "eve", "fay"];
let apiKeys: Map<string, string>;
beforeEach(async () => {
  cwd = scratch.dir();
  dataDir = await initDataDir(cwd);
  apiKeys = new Map();
  for (const login of LOGINS) apiKeys.set(login, (await seedAccount(dataDir, login)).apiKey);
});
afterEach(() => scratch.cleanup());

const ROUNDS = 5;
const ROLES = ["vip", "partner", "pro", "default"] as const;
const BOT_QUOTA = { default: "30", pro: "60", vip: "90", partner: "120" } as const;
const roleOf = (round: number, index: number) => ROLES[(round + index) % ROLES.length] ?? "default";

/** One round: five `role set` and one `key rotate`, all started at once, each on its own account. */
function round(r: number): Promise<CliResult>[] {
  return LOGINS.map((login, i) =>
    scratch.run(
      i === LOGINS.length - 1
        ? ["key", "rotate", login, "--data-dir", dataDir]
        : ["role", "set", login, roleOf(r, i), "--data-dir", dataDir],
      { cwd },
    ),
  );
}

function expectAllDone(results: CliResult[]): void {
  const failed = results.filter((r) => r.code !== 0).map((r) => `exit ${r.code}: ${r.stderr.trim()}`);
  expect(failed).toEqual([]);
}

/** Requests /healthz from `width` loops until stopped: the load the SIGBUS was first seen under. */
function loadOn(url: string, width: number) {
  let running = true;
  let answered = 0;
  const failures: string[] = [];
  const loops = Array.from({ length: width }, async () => {
    while (running) {
      try {
        const response = await fetch(`${url}/healthz`);
        await response.arrayBuffer();
        if (response.status === 200) answered++;
        else failures.push(`status ${response.status}`);
      } catch (error) {
        failures.push((error as Error).message);
        return;
      }
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      return { answered, failures };
    },
  };
}

async function expectServed(server: ServeProcess, r: number, rotatedKey: string): Promise<void> {
  for (const [i, login] of LOGINS.slice(0, -1).entries()) {
    const response = await fetch(`${server.url}/api/bot/coinflip?apiKey=${apiKeys.get(login)}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-ratelimit-limit")).toBe(BOT_QUOTA[roleOf(r, i)]);
  }
  const last = LOGINS.at(-1) ?? "";
  expect((await fetch(`${server.url}/api/bot/coinflip?apiKey=${apiKeys.get(last)}`)).status).toBe(401);
  expect((await fetch(`${server.url}/api/bot/coinflip?apiKey=${rotatedKey}`)).status).toBe(200);
  apiKeys.set(last, rotatedKey);
}

describe("many CLI commands at once", () => {
  test("six at a time, five rounds, no server: every one exits 0 and every change is stored", async () => {
    for (let r = 0; r < ROUNDS; r++) expectAllDone(await Promise.all(round(r)));
    const list = await scratch.run(["role", "list", "--json", "--data-dir", dataDir], { cwd });
    const roles = JSON.parse(list.stdout) as { login: string; role: string }[];
    expect(roles.map((a) => a.login)).toEqual(LOGINS);
    for (const [i, login] of LOGINS.slice(0, -1).entries()) {
      expect(roles.find((a) => a.login === login)?.role.toLowerCase()).toBe(roleOf(ROUNDS - 1, i));
    }
  }, 120_000);

  test("beside a server under load: every one exits 0, the server stays up and serves each round's changes", async () => {
    const server = await scratch.serve(["serve", "--data-dir", dataDir, "--port", "0"], { cwd });
    const load = loadOn(server.url, 16);
    try {
      for (let r = 0; r < ROUNDS; r++) {
        const results = await Promise.all(round(r));
        expectAllDone(results);
        await expectServed(server, r, (results.at(-1)?.stdout ?? "").trim());
      }
    } finally {
      const { answered, failures } = await load.stop();
      expect(failures).toEqual([]);
      expect(answered).toBeGreaterThan(0);
    }
    expect(server.proc.exitCode).toBeNull();
    expect(await server.stop()).toBe(0);
  }, 180_000);
});

/** A `role set` as a process the test may kill; resolves to its exit code (or signal) and output. */
function roleSetProcess(login: string, role: string) {
  const proc = Bun.spawn([...SOURCE_CLI, "role", "set", login, role, "--data-dir", dataDir], {
    cwd,
    env: cleanEnv(),
    stdout: "pipe",
    stderr: "pipe",
  });
  const done = Promise.all([new Response(proc.stderr).text(), proc.exited]).then(([stderr, code]) => ({
    code,
    signal: proc.signalCode,
    stderr,
  }));
  return { proc, done };
}

function expectIntactDatabase(): void {
  if (onPostgres) return;
  const check = new Database(join(dataDir, "cuebot.db"), { readonly: true });
  try {
    expect(check.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
  } finally {
    check.close();
  }
}

describe("kill -9 in the middle", () => {
  test("commands killed mid-way: the others complete, the server stays up, the database stays whole", async () => {
    const server = await scratch.serve(["serve", "--data-dir", dataDir, "--port", "0"], { cwd });
    const load = loadOn(server.url, 8);
    try {
      for (let r = 0; r < 3; r++) {
        const runs = LOGINS.map((login, i) => roleSetProcess(login, roleOf(r, i)));
        // Two of the six are killed at some point of their work: opening, migrating, writing.
        await Bun.sleep(50 + r * 150);
        for (const run of runs.slice(0, 2)) run.proc.kill("SIGKILL");
        const results = await Promise.all(runs.map((run) => run.done));
        for (const result of results.slice(2)) expect(result).toMatchObject({ code: 0, stderr: "" });
        for (const [i, login] of LOGINS.entries()) {
          if (i < 2) continue;
          const response = await fetch(`${server.url}/api/bot/coinflip?apiKey=${apiKeys.get(login)}`);
          expect(response.headers.get("x-ratelimit-limit")).toBe(BOT_QUOTA[roleOf(r, i)]);
        }
      }
    } finally {
      expect((await load.stop()).failures).toEqual([]);
    }
    expect(server.proc.exitCode).toBeNull();
    expect(await server.stop()).toBe(0);
    expectIntactDatabase();
  }, 120_000);

  test("the server killed while commands run: every command completes, a restarted server serves their changes", async () => {
    const server = await scratch.serve(["serve", "--data-dir", dataDir, "--port", "0"], { cwd });
    const load = loadOn(server.url, 8);
    const runs = round(0);
    await Bun.sleep(100);
    server.proc.kill("SIGKILL");
    await load.stop();
    expectAllDone(await Promise.all(runs));
    expectIntactDatabase();
    const again = await scratch.serve(["serve", "--data-dir", dataDir, "--port", "0"], { cwd });
    for (const [i, login] of LOGINS.slice(0, -1).entries()) {
      const response = await fetch(`${again.url}/api/bot/coinflip?apiKey=${apiKeys.get(login)}`);
      expect(response.headers.get("x-ratelimit-limit")).toBe(BOT_QUOTA[roleOf(0, i)]);
    }
    expect(await again.stop()).toBe(0);
  }, 120_000);
});

describe.skipIf(onPostgres)("a database another process keeps locked", () => {
  test("a command waits past SQLite's 10 s busy timeout (up to 30 s) and then completes", async () => {
    const holder = new Database(join(dataDir, "cuebot.db"));
    holder.exec("BEGIN IMMEDIATE");
    holder.exec("UPDATE accounts SET updated_at = updated_at");
    const started = performance.now();
    const command = scratch.run(["role", "set", "ann", "vip", "--data-dir", dataDir], { cwd });
    // Held past busy_timeout: before, the command gave up here with "unexpected error: database is locked".
    await Bun.sleep(11_000);
    holder.exec("COMMIT");
    holder.close();
    const result = await command;
    expect(result).toEqual({ code: 0, stdout: "ann is now VIP (was Default)\n", stderr: "" });
    expect(performance.now() - started).toBeGreaterThan(10_000);
  }, 60_000);

  test("held past 30 s: exit 1 with one cuebot: line within the wait, nothing changed", async () => {
    const holder = new Database(join(dataDir, "cuebot.db"));
    holder.exec("BEGIN IMMEDIATE");
    holder.exec("UPDATE accounts SET updated_at = updated_at");
    const started = performance.now();
    const result = await scratch.run(["role", "set", "ann", "vip", "--data-dir", dataDir], { cwd });
    const waited = performance.now() - started;
    holder.exec("ROLLBACK");
    holder.close();
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toStartWith("cuebot: the database stayed busy for 30 s (");
    expect(result.stderr).toEndWith("); nothing was changed, try again\n");
    expect(result.stderr.split("\n")).toHaveLength(2);
    // The last attempt waits only for the time left (each attempt alone may wait 10 s).
    expect(waited).toBeGreaterThan(29_000);
    expect(waited).toBeLessThan(33_000);
    const list = await scratch.run(["role", "list", "--json", "--data-dir", dataDir], { cwd });
    expect((JSON.parse(list.stdout) as { role: string }[])[0]?.role).toBe("Default");
  }, 60_000);
});
