/**
 * `cuebot serve` on a PostgreSQL server of its own (so it can be stopped) and one redis-server: the
 * promises that are PostgreSQL's alone. Instances share the database only when they share Redis; an
 * instance with another secret.key is refused; PostgreSQL stopped under load gives the documented
 * 503 and service comes back by itself, CLI changes included. (The rest of the cluster behaviour runs
 * on PostgreSQL too: tests/server/cluster.test.ts under `npm run test:postgres`.)
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { SQL } from "bun";
import { SERVING_LOCK_KEY } from "../../server/core/postgres-storage.ts";
import { SECRET_KEY_FILE } from "../../server/core/secrets.ts";
import { initDataDir, Scratch, type ServeProcess, seedAccount } from "../helpers/cli.ts";
import {
  explainSkip,
  type PostgresServer,
  postgresAvailable,
  type RedisServer,
  redisAvailable,
  startPostgres,
  startRedis,
} from "../helpers/engines.ts";

explainSkip("postgres");
explainSkip("redis");

const scratch = new Scratch();
let pg: PostgresServer;
let redis: RedisServer;
let cwd: string;
let dataDir: string;
let databaseUrl: string;

const serve = (folder: string, ...extra: string[]) =>
  scratch.serve(["serve", "--port", "0", "--data-dir", folder, "--database-url", databaseUrl, ...extra], {
    cwd,
  });

const magic8 = (server: ServeProcess, key: string) =>
  fetch(`${server.url}/api/bot/magic8?apiKey=${key}&q=will+it+work`);

/** Asks until `server` answers `wanted` for `key`, or `ms` have passed; the last status. */
async function statusWithin(ms: number, server: ServeProcess, key: string, wanted: number): Promise<number> {
  const deadline = Date.now() + ms;
  let status = 0;
  while (Date.now() < deadline) {
    status = (await magic8(server, key)).status;
    if (status === wanted) break;
    await Bun.sleep(200);
  }
  return status;
}

/** A folder of its own for a second machine: the same secret.key, the same database. */
async function siblingFolder(): Promise<string> {
  const folder = join(scratch.dir("cuebot-pg-sibling-"), "data");
  const result = await scratch.run(["init", "--data-dir", folder], { cwd });
  expect(result.code).toBe(0);
  copyFileSync(join(dataDir, SECRET_KEY_FILE), join(folder, SECRET_KEY_FILE));
  return folder;
}

describe.skipIf(!postgresAvailable || !redisAvailable)("instances on their own PostgreSQL server", () => {
  beforeAll(async () => {
    [pg, redis] = await Promise.all([startPostgres({ durable: true }), startRedis()]);
    databaseUrl = pg.urlOf("postgres");
    cwd = scratch.dir("cuebot-pg-cluster-");
    dataDir = await initDataDir(cwd, undefined, { database: "sqlite" });
  }, 30_000);

  // A failed test must not leave its instances serving into the next one.
  afterEach(() => scratch.killProcesses());

  afterAll(async () => {
    await scratch.cleanup();
    await redis?.stop();
    pg?.stop();
  });

  test("without Redis one instance serves a database alone; with Redis several do, each from its own folder", async () => {
    const alone = await serve(dataDir);
    expect(alone.stdout()).toContain('"stores":"postgres postgres://cuebot@127.0.0.1');
    const sibling = await siblingFolder();
    const second = await scratch.run(
      [
        "serve",
        "--port",
        "0",
        "--data-dir",
        sibling,
        "--database-url",
        databaseUrl,
        "--redis-url",
        redis.url,
      ],
      { cwd },
    );
    expect(second.code).toBe(1);
    expect(second.stderr).toContain("another cuebot instance serves this PostgreSQL database without Redis");
    expect(await alone.stop()).toBe(0);

    const a = await serve(dataDir, "--redis-url", redis.url);
    const b = await serve(sibling, "--redis-url", redis.url);
    const third = await siblingFolder();
    const without = await scratch.run(
      ["serve", "--port", "0", "--data-dir", third, "--database-url", databaseUrl],
      { cwd },
    );
    expect(without.code).toBe(1);
    expect(without.stderr).toContain("only share it when all of them also share Redis");
    expect((await fetch(`${a.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${b.url}/healthz`)).status).toBe(200);
    expect(await a.stop()).toBe(0);
    expect(await b.stop()).toBe(0);
  }, 30_000);

  test("an instance whose secret.key differs from the database's is refused, naming the file to copy", async () => {
    const stranger = join(scratch.dir("cuebot-pg-stranger-"), "data");
    expect((await scratch.run(["init", "--data-dir", stranger], { cwd })).code).toBe(0);
    const result = await scratch.run(
      [
        "serve",
        "--port",
        "0",
        "--data-dir",
        stranger,
        "--database-url",
        databaseUrl,
        "--redis-url",
        redis.url,
      ],
      { cwd },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("secret.key differs from the one the database was created with");
    expect(result.stdout).not.toContain("listening on");
  });

  test("PostgreSQL stopped under load: 200 from memory or 503 store_unavailable, never 500; back, it serves and sees CLI changes", async () => {
    const env = { CUEBOT_DATABASE_URL: databaseUrl };
    await seedAccount(dataDir, "alice", "alice", env);
    await seedAccount(dataDir, "bob", "bob", env);
    const keys = await keysOf(["alice", "bob"], env);
    const sibling = await siblingFolder();
    const a = await serve(dataDir, "--redis-url", redis.url);
    const b = await serve(sibling, "--redis-url", redis.url);
    const overlay = await scratch.run(["overlay", "rotate", "alice", "--data-dir", dataDir], { cwd, env });
    expect(overlay.code).toBe(0);
    // A write acknowledged just before the outage survives it.
    expect((await scratch.run(["role", "set", "bob", "Pro", "--data-dir", dataDir], { cwd, env })).code).toBe(
      0,
    );
    // Its notification flushes the instances' caches; then Alice's key is cached on both, Bob's not.
    await Bun.sleep(200);
    expect((await magic8(a, keys.alice!)).status).toBe(200);
    expect((await magic8(b, keys.alice!)).status).toBe(200);

    // An overlay open on A through the outage.
    const stream = await fetch(`${a.url}/api/overlay/events?token=${overlay.stdout.trim()}`);
    expect(stream.status).toBe(200);
    let streamed = "";
    let streamEnded = false;
    const reading = (async () => {
      const reader = stream.body!.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) break;
        streamed += decoder.decode(value);
      }
      streamEnded = true;
    })();

    const haltedAt = performance.now();
    pg.halt();
    const statuses = new Set<number>();
    // (Alice's quota is 30 a minute: 2 + 12 + 2 of it here.)
    for (let i = 0; i < 6; i++) {
      for (const server of [a, b]) {
        const startedAt = performance.now();
        const cached = await magic8(server, keys.alice!);
        statuses.add(cached.status);
        const uncached = await magic8(server, keys.bob!);
        statuses.add(uncached.status);
        expect(uncached.status).toBe(503);
        expect(uncached.headers.get("retry-after")).toBe("5");
        const body = (await uncached.json()) as { error: { code: string; message: string } };
        expect(body.error).toEqual({
          code: "store_unavailable",
          message: "cuebot cannot reach its database right now; try again in a few seconds.",
        });
        expect(performance.now() - startedAt).toBeLessThan(5_000);
      }
    }
    // What is in memory keeps answering; nothing is a 500.
    expect([...statuses].sort()).toEqual([200, 503]);
    expect((await fetch(`${a.url}/healthz`)).status).toBe(200);
    // ... also after a longer outage: nobody can change anything meanwhile, so nothing goes stale.
    await Bun.sleep(Math.max(0, 17_000 - (performance.now() - haltedAt)));
    for (const server of [a, b]) expect((await magic8(server, keys.alice!)).status).toBe(200);
    // The overlay stayed open and got its heartbeat (every 15 s) meanwhile.
    expect(streamEnded).toBe(false);
    expect(streamed).toContain(": heartbeat");

    pg.resume();
    for (const server of [a, b]) expect(await statusWithin(15_000, server, keys.bob!, 200)).toBe(200);
    const roles = await scratch.run(["role", "list", "--json", "--data-dir", dataDir], { cwd, env });
    expect(JSON.parse(roles.stdout)).toContainEqual(expect.objectContaining({ login: "bob", role: "Pro" }));
    // The CLI's change reaches both instances within seconds of PostgreSQL's return: each subscribes
    // again at once rather than wait out the driver's retry pause.
    const rotated = await scratch.run(["key", "rotate", "alice", "--data-dir", dataDir], { cwd, env });
    expect(rotated.code).toBe(0);
    for (const server of [a, b]) {
      expect(await statusWithin(5_000, server, keys.alice!, 401)).toBe(401);
      expect((await magic8(server, rotated.stdout.trim())).status).toBe(200);
    }
    expect(await a.stop()).toBe(0);
    expect(await b.stop()).toBe(0);
    await reading;
  }, 90_000);

  test("the lone instance without Redis takes its serving lock again after PostgreSQL restarted", async () => {
    const alone = await serve(dataDir);
    pg.halt();
    await Bun.sleep(500);
    pg.resume();
    // The lock went with PostgreSQL's sessions; the instance's watchdog takes it again within seconds.
    const probe = new SQL({ url: databaseUrl, max: 1 });
    try {
      const deadline = Date.now() + 15_000;
      let held = false;
      while (!held && Date.now() < deadline) {
        await Bun.sleep(250);
        const [row] = await probe.unsafe(`SELECT pg_try_advisory_lock_shared(${SERVING_LOCK_KEY}) AS free`);
        if (row?.free) await probe.unsafe(`SELECT pg_advisory_unlock_shared(${SERVING_LOCK_KEY})`);
        else held = true;
      }
      expect(held).toBe(true);
    } finally {
      await probe.close();
    }
    const second = await scratch.run(
      ["serve", "--port", "0", "--data-dir", await siblingFolder(), "--database-url", databaseUrl],
      {
        cwd,
      },
    );
    expect(second.code).toBe(1);
    expect(second.stderr).toContain("already serves this PostgreSQL database");
    expect(await alone.stop()).toBe(0);
  }, 40_000);
});

async function keysOf(logins: string[], env: Record<string, string>): Promise<Record<string, string>> {
  const keys: Record<string, string> = {};
  for (const login of logins) {
    const shown = await scratch.run(["key", "show", login, "--data-dir", dataDir], { cwd, env });
    expect(shown.code).toBe(0);
    keys[login] = shown.stdout.trim();
  }
  return keys;
}
