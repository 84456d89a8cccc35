/**
 * Two `cuebot serve` processes behind one public URL, sharing the data folder's SQLite file and one
 * real redis-server: they must behave as one server (limits, CLI changes, overlays), survive the loss
 * of each other, and answer the documented 503 while Redis is away, recovering by themselves.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../server/core/config.ts";
import { createLogger } from "../../server/core/log.ts";
import { createSession } from "../../server/core/sessions.ts";
import { openContext } from "../../server/runtime.ts";
import { initDataDir, Scratch, type ServeProcess } from "../helpers/cli.ts";
import { createTestAccount, onPostgres } from "../helpers/context.ts";
import { explainSkip, type RedisServer, redisAvailable, startRedis } from "../helpers/engines.ts";

explainSkip("redis");

/** What a balancer in front of both instances would be reached at; the pages' Origin. */
const PUBLIC_URL = "http://localhost:9999";

interface Seeded {
  login: string;
  apiKey: string;
  overlayToken: string;
  session: string;
}

const scratch = new Scratch();
let redis: RedisServer;
let dataDir: string;
let cwd: string;
let a: ServeProcess;
let b: ServeProcess;
const accounts: Record<string, Seeded> = {};

async function seed(logins: string[]): Promise<void> {
  const ctx = await openContext(loadConfig({ dataDir, env: {} }), {
    log: createLogger({ level: "error", format: "json", write: () => {} }),
  });
  try {
    for (const login of logins) {
      const { account, apiKey, overlayToken } = await createTestAccount(ctx, { login, displayName: login });
      accounts[login] = {
        login,
        apiKey,
        overlayToken,
        session: (await createSession(ctx, account.id, "test")).token,
      };
    }
  } finally {
    await ctx.close();
  }
}

function instance(): Promise<ServeProcess> {
  return scratch.serve(
    ["serve", "--port", "0", "--data-dir", dataDir, "--redis-url", redis.url, "--public-url", PUBLIC_URL],
    { cwd },
  );
}

const magic8 = (server: ServeProcess, key: string) =>
  fetch(`${server.url}/api/bot/magic8?apiKey=${key}&q=will+it+work`);

async function publish(server: ServeProcess, who: Seeded, state: Record<string, unknown>) {
  const response = await fetch(`${server.url}/api/dashboard/overlay/state`, {
    method: "POST",
    headers: { cookie: `app_sess=${who.session}`, origin: PUBLIC_URL, "content-type": "application/json" },
    body: JSON.stringify({ state }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { version: number } }).data.version;
}

/** An SSE client on `server`: resolves each `state` event's version as it arrives. */
function overlayStream(server: ServeProcess, who: Seeded) {
  const abort = new AbortController();
  const versions: number[] = [];
  const waiters: { version: number; resolve: (at: number) => void }[] = [];
  const ready = (async () => {
    const response = await fetch(`${server.url}/api/overlay/events?token=${who.overlayToken}`, {
      signal: abort.signal,
    });
    expect(response.status).toBe(200);
    return response.body!.getReader();
  })();
  const reading = (async () => {
    const reader = await ready;
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end = buffer.indexOf("\n\n");
        while (end >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const id = /^id: (\d+)$/m.exec(event);
          if (id && /^event: state$/m.test(event)) {
            const version = Number(id[1]);
            versions.push(version);
            for (const waiter of waiters.filter((w) => w.version <= version))
              waiter.resolve(performance.now());
          }
          end = buffer.indexOf("\n\n");
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    versions,
    ready,
    /** When (performance.now()) a state of at least `version` arrived. */
    arrival(version: number): Promise<number> {
      if (versions.some((v) => v >= version)) return Promise.resolve(performance.now());
      return new Promise((resolve) => waiters.push({ version, resolve }));
    },
    async close() {
      abort.abort();
      await reading;
    },
  };
}

async function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

describe.skipIf(!redisAvailable)("two instances on one data folder and one Redis", () => {
  beforeAll(async () => {
    redis = await startRedis();
    cwd = scratch.dir("cuebot-cluster-");
    dataDir = await initDataDir(cwd);
    await seed(["alice", "bob", "carol", "dave", "erin", "frank", "grace"]);
    [a, b] = await Promise.all([instance(), instance()]);
  }, 30_000);

  afterAll(async () => {
    await scratch.cleanup();
    await redis?.stop();
  });

  test("two instances started at the same moment on an empty data folder both come up, with one key and one schema", async () => {
    for (let round = 0; round < 8; round++) {
      const folder = join(scratch.dir("cuebot-cluster-fresh-"), "data");
      const args = ["serve", "--port", "0", "--data-dir", folder, "--redis-url", redis.url];
      const [one, two] = await Promise.all([scratch.serve(args, { cwd }), scratch.serve(args, { cwd })]);
      expect((await fetch(`${one.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${two.url}/healthz`)).status).toBe(200);
      expect(readdirSync(folder).filter((name) => name.startsWith("secret.key"))).toEqual(["secret.key"]);
      expect(await one.stop()).toBe(0);
      expect(await two.stop()).toBe(0);
    }
  }, 30_000);

  test("they share one bot quota exactly: alternate calls, the 31st in a minute is refused wherever it lands", async () => {
    const key = accounts.alice!.apiKey;
    const remaining: string[] = [];
    for (let i = 0; i < 30; i++) {
      const response = await magic8(i % 2 === 0 ? a : b, key);
      expect(response.status).toBe(200);
      remaining.push(response.headers.get("x-ratelimit-remaining") ?? "");
    }
    // One window between them: the counter runs down across both instances.
    expect(remaining).toEqual(Array.from({ length: 30 }, (_, i) => String(29 - i)));
    for (const server of [a, b]) {
      const refused = await magic8(server, key);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("x-ratelimit-limit")).toBe("30");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
    }
  });

  test("a key rotated through the CLI is refused by both instances on the very next request", async () => {
    const old = accounts.bob!.apiKey;
    expect((await magic8(a, old)).status).toBe(200);
    expect((await magic8(b, old)).status).toBe(200);
    const rotated = await scratch.run(["key", "rotate", "bob", "--data-dir", dataDir], { cwd });
    expect(rotated.code).toBe(0);
    const fresh = rotated.stdout.trim();
    for (const server of [a, b]) {
      const refused = await magic8(server, old);
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("invalid_api_key");
      expect((await magic8(server, fresh)).status).toBe(200);
    }
  });

  test("the game API with a key counts against the same shared bot quota", async () => {
    const key = accounts.erin!.apiKey;
    const before = await magic8(a, key);
    const remaining = Number(before.headers.get("x-ratelimit-remaining"));
    // No provider key is configured here: the answer is the documented upstream error, after the quota.
    const game = await fetch(`${b.url}/api/game/rank/eu/Kestrel/EUW?apiKey=${key}`);
    expect(game.status).toBe(500);
    expect(((await game.json()) as { error: { code: string } }).error.code).toBe("upstream_error");
    expect(game.headers.get("x-ratelimit-limit")).toBe("30");
    expect(game.headers.get("x-ratelimit-remaining")).toBe(String(remaining - 1));
  });

  // On SQLite every request of the other instance looks at data_version first: its next request refuses
  // the old key. On PostgreSQL it hears of the commit by NOTIFY (~0.1 ms on loopback, but asynchronous: a
  // loaded machine can answer the writer's request and start the next one first), so the old key is
  // asked again, paced, until refused within a second (reference/scale-out.md §5: the bound is delivery).
  test("a key regenerated from the dashboard on one instance is refused by the other (SQLite: on its next request)", async () => {
    const grace = accounts.grace!;
    expect((await magic8(b, grace.apiKey)).status).toBe(200);
    const regenerated = await fetch(`${a.url}/api/dashboard/security/regenerate-key`, {
      method: "POST",
      headers: { cookie: `app_sess=${grace.session}`, origin: PUBLIC_URL },
    });
    expect(regenerated.status).toBe(200);
    const fresh = ((await regenerated.json()) as { data: { apiKey: string } }).data.apiKey;
    let status = (await magic8(b, grace.apiKey)).status;
    const deadline = performance.now() + 1000;
    while (onPostgres && status === 200 && performance.now() < deadline) {
      await Bun.sleep(50);
      status = (await magic8(b, grace.apiKey)).status;
    }
    expect(status).toBe(401);
    expect((await magic8(b, fresh)).status).toBe(200);
  });

  test("a command cooldown started on one instance holds on the other", async () => {
    const erin = accounts.erin!;
    const saved = await fetch(`${a.url}/api/dashboard/commands/coinflip`, {
      method: "PUT",
      headers: { cookie: `app_sess=${erin.session}`, origin: PUBLIC_URL, "content-type": "application/json" },
      body: JSON.stringify({ cooldownSeconds: 30 }),
    });
    expect(saved.status).toBe(200);
    const coinflip = (server: ServeProcess) => fetch(`${server.url}/api/bot/coinflip?apiKey=${erin.apiKey}`);
    expect((await coinflip(b)).status).toBe(200);
    const cooling = await coinflip(a);
    expect(cooling.status).toBe(429);
    expect(((await cooling.json()) as { error: { code: string } }).error.code).toBe("on_cooldown");
    expect(Number(cooling.headers.get("retry-after"))).toBeGreaterThanOrEqual(29);
  });

  test("an overlay published on one instance reaches an SSE client on the other within 1 s", async () => {
    const carol = accounts.carol!;
    const stream = overlayStream(b, carol);
    try {
      await stream.ready;
      await within(10_000, stream.arrival(0), "the first state");
      const sentAt = performance.now();
      const version = await publish(a, carol, { title: "Now playing", text: "from instance A" });
      const arrivedAt = await within(1000, stream.arrival(version), "the publish on the other instance");
      expect(arrivedAt - sentAt).toBeLessThan(1000);
    } finally {
      await stream.close();
    }
  });

  test("with Redis away both answer 503 store_unavailable at once, and recover by themselves when it is back", async () => {
    const key = accounts.dave!.apiKey;
    expect((await magic8(a, key)).status).toBe(200);
    await redis.kill();
    for (const server of [a, b]) {
      const startedAt = performance.now();
      const refused = await magic8(server, key);
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("5");
      const body = (await refused.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("store_unavailable");
      // Bounded by the per-check timeout, not by TCP giving up.
      expect(performance.now() - startedAt).toBeLessThan(2000);
      // Chat bots get one readable line, status 200 (CONTRACT, text mode).
      const text = await fetch(`${server.url}/api/bot/magic8?apiKey=${key}&q=x&format=text`);
      expect(text.status).toBe(200);
      expect(await text.text()).toContain("try again in a few seconds");
      // Health does not depend on Redis; pages fall back to this instance's own per-address counters,
      // so the site stays up; logins, a security limit, wait for Redis like the quotas.
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      const page = await fetch(`${server.url}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get("x-ratelimit-limit")).toBe("300");
      const login = await fetch(`${server.url}/auth/login`, { redirect: "manual" });
      expect(login.status).toBe(503);
    }

    await redis.restart();
    for (const server of [a, b]) {
      const deadline = Date.now() + 10_000;
      let status = 0;
      while (Date.now() < deadline) {
        status = (await magic8(server, key)).status;
        if (status === 200) break;
        await Bun.sleep(100);
      }
      expect(status).toBe(200);
    }
    // The overlay bus subscribed again: a publish on B reaches a client on A.
    const carol = accounts.carol!;
    const stream = overlayStream(a, carol);
    try {
      await stream.ready;
      await within(10_000, stream.arrival(0), "the first state");
      const version = await publish(b, carol, { title: "after the restart" });
      await within(10_000, stream.arrival(version), "a publish after Redis came back");
    } finally {
      await stream.close();
    }
  }, 30_000);

  test("Redis killed under load: every request still gets a documented answer at once, and service resumes by itself", async () => {
    const key = accounts.frank!.apiKey;
    const statuses = new Map<number, number>();
    let stop = false;
    const worker = async (server: ServeProcess) => {
      while (!stop) {
        const startedAt = performance.now();
        const response = await magic8(server, key);
        await response.arrayBuffer();
        // Nobody waits on a Redis that is gone: the check's timeout bounds every answer.
        expect(performance.now() - startedAt).toBeLessThan(3000);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      }
    };
    const load = [a, b, a, b].map((server) => worker(server));
    await Bun.sleep(100);
    await redis.kill();
    await Bun.sleep(300);
    await redis.restart();
    // Once Redis is back, limits are checked again without anyone restarting anything (the load
    // soon spends the fresh window, so "checked" is a 200 or a 429, no longer a 503).
    const deadline = Date.now() + 10_000;
    let okAfter = 0;
    while (Date.now() < deadline && okAfter === 0) {
      okAfter = (await magic8(b, key)).status !== 503 ? 1 : 0;
      if (!okAfter) await Bun.sleep(50);
    }
    stop = true;
    await Promise.all(load);
    expect(okAfter).toBe(1);
    // Only the documented answers: served, over the quota, or the store is away.
    expect([...statuses.keys()].every((status) => [200, 429, 503].includes(status))).toBe(true);
    expect(statuses.get(503) ?? 0).toBeGreaterThan(0);
  }, 30_000);

  test("a frozen Redis (SIGSTOP) costs each request at most the check's timeout, and thawed it serves again", async () => {
    const key = accounts.dave!.apiKey;
    redis.pause();
    try {
      const startedAt = performance.now();
      const refused = await magic8(b, key);
      expect(refused.status).toBe(503);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("store_unavailable");
      expect(performance.now() - startedAt).toBeLessThan(2000);
    } finally {
      redis.resume();
    }
    const deadline = Date.now() + 5000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) {
      status = (await magic8(b, key)).status;
      if (status !== 200) await Bun.sleep(50);
    }
    expect(status).toBe(200);
  }, 15_000);

  test("an instance killed with -9 loses no acknowledged write, and the other keeps serving", async () => {
    const carol = accounts.carol!;
    const version = await publish(a, carol, { title: "written just before the crash" });
    a.proc.kill("SIGKILL");
    expect(await a.exited()).not.toBe(0);
    const response = await fetch(`${b.url}/api/overlay/state?token=${carol.overlayToken}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { version: number; state: { title: string } } };
    expect(body.data.version).toBe(version);
    expect(body.data.state.title).toBe("written just before the crash");
    expect((await magic8(b, accounts.bob!.apiKey)).status).toBe(401); // still the rotated key's world
  });
});
