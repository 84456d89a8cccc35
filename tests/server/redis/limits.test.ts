import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { StoreUnavailableError } from "../../../db/store-unavailable.ts";
import { ManualClock } from "../../../server/core/clock.ts";
import { SlidingCounter } from "../../../server/limits/sliding-counter.ts";
import { SlidingLog } from "../../../server/limits/sliding-log.ts";
import { connectRedis, type RedisClient } from "../../../server/redis/client.ts";
import { RedisAccountQuotas } from "../../../server/redis/limits/account-quotas.ts";
import { RedisIpQuotas } from "../../../server/redis/limits/ip-quotas.ts";
import { RedisSlidingCounter } from "../../../server/redis/limits/sliding-counter.ts";
import { RedisSlidingLog } from "../../../server/redis/limits/sliding-log.ts";
import {
  explainSkip,
  type RedisServer,
  redisAvailable,
  redisKeyPrefix,
  sharedRedisServer,
  startRedis,
} from "../../helpers/engines.ts";
import { seededRandom } from "../../helpers/prng.ts";

explainSkip("redis");

const TIMEOUT_MS = 200;
const clients: RedisClient[] = [];
const connectionErrors: Error[] = [];

async function client(url: string): Promise<RedisClient> {
  const connected = await connectRedis(url, { onError: (error) => connectionErrors.push(error) });
  clients.push(connected);
  return connected;
}

afterAll(async () => {
  await Promise.all(clients.map((c) => (c.isOpen ? c.close() : undefined)));
});

describe.skipIf(!redisAvailable)("Redis sliding log (account quotas)", () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await sharedRedisServer();
  });

  test("two instances sharing one key admit exactly the limit between them, then refuse with Retry-After", async () => {
    const prefix = redisKeyPrefix("log");
    const a = new RedisSlidingLog<number>({
      client: await client(server.url),
      windowMs: 60_000,
      prefix,
      timeoutMs: TIMEOUT_MS,
    });
    const b = new RedisSlidingLog<number>({
      client: await client(server.url),
      windowMs: 60_000,
      prefix,
      timeoutMs: TIMEOUT_MS,
    });
    const decisions = [];
    for (let i = 0; i < 61; i++) decisions.push(await (i % 2 === 0 ? a : b).check(42, 60));

    expect(decisions.slice(0, 60).every((d) => d.allowed && d.limit === 60)).toBe(true);
    expect(decisions.slice(0, 60).map((d) => d.remaining)).toEqual(
      Array.from({ length: 60 }, (_, i) => 59 - i),
    );
    const refused = decisions[60]!;
    expect(refused.allowed).toBe(false);
    expect(refused.remaining).toBe(0);
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    // Both instances see the same full log; another key is untouched.
    expect((await a.peek(42, 60)).allowed).toBe(false);
    expect((await b.peek(42, 60)).allowed).toBe(false);
    expect(await a.peek(43, 60)).toEqual({ allowed: true, limit: 60, remaining: 59, retryAfterSeconds: 0 });
  });

  test("concurrent checks from two instances never admit more than the limit", async () => {
    const prefix = redisKeyPrefix("log-burst");
    const a = new RedisSlidingLog({
      client: await client(server.url),
      windowMs: 60_000,
      prefix,
      timeoutMs: 2000,
    });
    const b = new RedisSlidingLog({
      client: await client(server.url),
      windowMs: 60_000,
      prefix,
      timeoutMs: 2000,
    });
    const all = await Promise.all(Array.from({ length: 300 }, (_, i) => (i % 2 ? a : b).check("k", 100)));
    expect(all.filter((d) => d.allowed)).toHaveLength(100);
  });

  test("answers the same numbers as the in-process log for the same clock (lowered limits too)", async () => {
    const clock = new ManualClock();
    const prefix = redisKeyPrefix("log-parity");
    const remote = new RedisSlidingLog<string>({
      client: await client(server.url),
      windowMs: 60_000,
      prefix,
      timeoutMs: 2000,
      clock,
    });
    const local = new SlidingLog<string>({ windowMs: 60_000, clock });
    const random = seededRandom(7);
    for (let step = 0; step < 600; step++) {
      clock.advance(Math.floor(random() * 900));
      const key = random() < 0.8 ? "a" : "b";
      const limit = random() < 0.9 ? 20 : 8; // a role change now and then
      const peek = random() < 0.1;
      const expected = peek ? local.peek(key, limit) : local.check(key, limit);
      const actual = peek ? await remote.peek(key, limit) : await remote.check(key, limit);
      expect({ step, ...actual }).toEqual({ step, ...expected });
    }
  });

  test("forget drops a key's log", async () => {
    const log = new RedisSlidingLog<number>({
      client: await client(server.url),
      windowMs: 60_000,
      prefix: redisKeyPrefix("forget"),
      timeoutMs: TIMEOUT_MS,
    });
    await log.check(1, 1);
    expect((await log.check(1, 1)).allowed).toBe(false);
    await log.forget(1);
    expect((await log.check(1, 1)).allowed).toBe(true);
  });

  test("a bad limit is refused before Redis is asked", async () => {
    const log = new RedisSlidingLog({
      client: await client(server.url),
      windowMs: 60_000,
      prefix: redisKeyPrefix(),
      timeoutMs: TIMEOUT_MS,
    });
    await expect(log.check("k", 0)).rejects.toBeInstanceOf(RangeError);
    await expect(log.check("k", 1.5)).rejects.toBeInstanceOf(RangeError);
  });

  test("a flushed script cache (NOSCRIPT) is reloaded on the next check", async () => {
    const redis = await client(server.url);
    const log = new RedisSlidingLog({
      client: redis,
      windowMs: 60_000,
      prefix: redisKeyPrefix("noscript"),
      timeoutMs: TIMEOUT_MS,
    });
    expect((await log.check("k", 3)).remaining).toBe(2);
    await redis.scriptFlush();
    expect((await log.check("k", 3)).remaining).toBe(1);
    expect((await log.check("k", 3)).remaining).toBe(0);
    expect((await log.check("k", 3)).allowed).toBe(false);
  });
});

describe.skipIf(!redisAvailable)("Redis sliding counter (per-IP limits)", () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await sharedRedisServer();
  });

  test("answers the same numbers as the in-process counter for the same clock", async () => {
    const clock = new ManualClock();
    const prefix = redisKeyPrefix("counter-parity");
    const remote = new RedisSlidingCounter({
      client: await client(server.url),
      limit: 15,
      windowMs: 10_000,
      prefix,
      timeoutMs: 2000,
      clock,
    });
    const local = new SlidingCounter({ limit: 15, windowMs: 10_000, clock, maxKeys: 1000 });
    const random = seededRandom(11);
    for (let step = 0; step < 800; step++) {
      clock.advance(Math.floor(random() * (random() < 0.05 ? 25_000 : 700)));
      const key = random() < 0.7 ? "203.0.113.7" : "2001:db8::/64";
      const peek = random() < 0.15;
      const expected = peek ? local.peek(key) : local.check(key);
      const actual = peek ? await remote.peek(key) : await remote.check(key);
      expect({ step, ...actual }).toEqual({ step, ...expected });
    }
  });

  test("two instances share one address's count", async () => {
    const prefix = redisKeyPrefix("counter");
    const a = new RedisSlidingCounter({
      client: await client(server.url),
      limit: 10,
      windowMs: 60_000,
      prefix,
      timeoutMs: TIMEOUT_MS,
    });
    const b = new RedisSlidingCounter({
      client: await client(server.url),
      limit: 10,
      windowMs: 60_000,
      prefix,
      timeoutMs: TIMEOUT_MS,
    });
    const decisions = [];
    for (let i = 0; i < 12; i++) decisions.push(await (i % 2 ? a : b).check("198.51.100.1"));
    // Within one fixed window the counter is exact; a window edge may only lower what is admitted.
    expect(decisions.filter((d) => d.allowed).length).toBeLessThanOrEqual(10);
    expect(decisions.at(-1)!.allowed).toBe(false);
    expect(decisions.at(-1)!.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect((await a.peek("198.51.100.1")).allowed).toBe(false);
  });
});

describe.skipIf(!redisAvailable)("Redis going away", () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await server?.stop();
  });

  test("a killed Redis gives StoreUnavailableError, and checks work again after it restarts", async () => {
    const log = new RedisSlidingLog({
      client: await client(server.url),
      windowMs: 60_000,
      prefix: redisKeyPrefix("outage"),
      timeoutMs: TIMEOUT_MS,
    });
    expect((await log.check("k", 5)).remaining).toBe(4);

    await server.kill();
    const error = await log.check("k", 5).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as StoreUnavailableError).code).toBe("store_unavailable");

    await server.restart();
    let recovered = null;
    for (let attempt = 0; attempt < 200 && !recovered; attempt++) {
      recovered = await log.check("k", 5).catch(() => null);
      if (!recovered) await Bun.sleep(25);
    }
    // The restarted server has neither the data (no persistence) nor the script: both are rebuilt.
    expect(recovered).toEqual({ allowed: true, limit: 5, remaining: 4, retryAfterSeconds: 0 });
  });

  test("a frozen Redis gives StoreUnavailableError after the per-call timeout instead of hanging", async () => {
    const counter = new RedisSlidingCounter({
      client: await client(server.url),
      limit: 5,
      windowMs: 60_000,
      prefix: redisKeyPrefix("frozen"),
      timeoutMs: TIMEOUT_MS,
    });
    expect((await counter.check("192.0.2.1")).allowed).toBe(true);
    server.pause();
    try {
      const error = await counter.check("192.0.2.1").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreUnavailableError);
    } finally {
      server.resume();
    }
    let recovered = null;
    for (let attempt = 0; attempt < 200 && !recovered; attempt++) {
      recovered = await counter.check("192.0.2.1").catch(() => null);
      if (!recovered) await Bun.sleep(25);
    }
    expect(recovered?.allowed).toBe(true);
  });
});

describe.skipIf(!redisAvailable)("Redis account and per-IP quotas", () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await sharedRedisServer();
  });

  test("the role's quotas, each counted apart, shared by two instances; a role change applies at once", async () => {
    const keyPrefix = redisKeyPrefix("quotas");
    const a = new RedisAccountQuotas({ client: await client(server.url), timeoutMs: TIMEOUT_MS, keyPrefix });
    const b = new RedisAccountQuotas({ client: await client(server.url), timeoutMs: TIMEOUT_MS, keyPrefix });
    const account = { id: 7, role: "Default" as const, panelLimitOverride: null };
    for (let i = 0; i < 30; i++) expect((await (i % 2 ? a : b).checkBot(account)).allowed).toBe(true);
    const refused = await a.checkBot(account);
    expect(refused).toMatchObject({ allowed: false, limit: 30, remaining: 0 });
    // Heavy and panel calls have their own logs.
    expect(await b.checkHeavy(account)).toEqual({
      allowed: true,
      limit: 5,
      remaining: 4,
      retryAfterSeconds: 0,
    });
    expect(await b.checkPanel(account)).toEqual({
      allowed: true,
      limit: 500,
      remaining: 499,
      retryAfterSeconds: 0,
    });
    // Promoted to Pro: the 30 already logged count against the new 60.
    expect(await b.checkBot({ ...account, role: "Pro" })).toEqual({
      allowed: true,
      limit: 60,
      remaining: 29,
      retryAfterSeconds: 0,
    });
    await a.forget(account.id);
    expect((await b.checkBot(account)).remaining).toBe(29);
  });

  test("per-IP limits key IPv6 by /64 and count failed authentications across instances", async () => {
    const keyPrefix = redisKeyPrefix("ip");
    const a = new RedisIpQuotas({ client: await client(server.url), timeoutMs: TIMEOUT_MS, keyPrefix });
    const b = new RedisIpQuotas({ client: await client(server.url), timeoutMs: TIMEOUT_MS, keyPrefix });
    expect((await a.check("auth", "2001:db8:1:2::1")).remaining).toBe(14);
    expect((await b.check("auth", "2001:db8:1:2:ffff::9")).remaining).toBe(13);
    expect((await b.check("anonymous", "2001:db8:1:2::1")).remaining).toBe(99);
    expect(await a.failedAuth.isBlocked("192.0.2.9")).toBe(false);
    for (let i = 0; i < 60; i++)
      expect((await (i % 2 ? a : b).failedAuth.record("192.0.2.9")).allowed).toBe(true);
    expect((await a.failedAuth.record("192.0.2.9")).allowed).toBe(false);
    expect(await b.failedAuth.isBlocked("192.0.2.9")).toBe(true);
    expect(await b.failedAuth.isBlocked("192.0.2.10")).toBe(false);
  });
});
