import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { StoreUnavailableError } from "../../../db/store-unavailable.ts";
import { connectRedis, type RedisClient } from "../../../server/redis/client.ts";
import { RedisLease } from "../../../server/redis/lease.ts";
import {
  explainSkip,
  type RedisServer,
  redisAvailable,
  redisKeyPrefix,
  sharedRedisServer,
  startRedis,
} from "../../helpers/engines.ts";

explainSkip("redis");

const clients: RedisClient[] = [];
async function client(url: string): Promise<RedisClient> {
  const connected = await connectRedis(url, { onError: () => {} });
  clients.push(connected);
  return connected;
}
afterAll(async () => {
  await Promise.all(clients.map((c) => (c.isOpen ? c.close() : undefined)));
});

/** Polls `attempt` until it gives a value (the lease TTL has to run out in real time). */
async function eventually<T>(attempt: () => Promise<T | null>): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const value = await attempt().catch(() => null);
    if (value !== null) return value;
    await Bun.sleep(10);
  }
  throw new Error("gave up waiting");
}

describe.skipIf(!redisAvailable)("Redis lease with fencing tokens", () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await sharedRedisServer();
  });

  async function contenders(ttlMs: number) {
    const keyPrefix = redisKeyPrefix("lease");
    const options = { name: "chat:42", ttlMs, timeoutMs: 500, keyPrefix };
    return [
      new RedisLease({ ...options, client: await client(server.url), owner: "instance-a" }),
      new RedisLease({ ...options, client: await client(server.url), owner: "instance-b" }),
    ] as const;
  }

  test("one holder at a time; renewing keeps it, and acquiring again keeps the same token", async () => {
    const [a, b] = await contenders(10_000);
    const held = await a.acquire();
    expect(held?.token).toBeGreaterThan(0);
    expect(await b.acquire()).toBeNull();
    expect(await a.renew()).not.toBeNull();
    expect(await b.renew()).toBeNull();
    expect((await a.acquire())?.token).toBe(held!.token);
  });

  test("a released lease goes to the next contender with a larger token; a stale release does nothing", async () => {
    const [a, b] = await contenders(10_000);
    const first = await a.acquire();
    expect(await b.release()).toBe(false);
    expect(await a.release()).toBe(true);
    const second = await b.acquire();
    expect(second!.token).toBeGreaterThan(first!.token);
    expect(await a.renew()).toBeNull();
    expect(await a.release()).toBe(false);
    expect(await b.acquire()).toEqual({ token: second!.token, validUntil: expect.any(Number) });
  });

  test("a holder that stops renewing loses the lease when its TTL ends; the successor's token is larger", async () => {
    const [a, b] = await contenders(150);
    const first = await a.acquire();
    const second = await eventually(() => b.acquire());
    expect(second.token).toBeGreaterThan(first!.token);
    expect(await a.renew()).toBeNull();
  });
});

describe.skipIf(!redisAvailable)("Redis lease across a Redis restart", () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await server?.stop();
  });

  test("tokens still increase after Redis restarts with nothing remembered; an outage is StoreUnavailableError", async () => {
    const lease = new RedisLease({
      client: await client(server.url),
      name: "chat:7",
      ttlMs: 10_000,
      timeoutMs: 300,
    });
    const before = await lease.acquire();
    await server.kill();
    expect(await lease.renew().catch((e: unknown) => e)).toBeInstanceOf(StoreUnavailableError);
    await server.restart();
    const after = await eventually(() => lease.acquire());
    expect(after.token).toBeGreaterThan(before!.token);
  });
});
