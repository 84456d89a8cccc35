// Command cooldowns in Redis behave as in process: counted from when the run began, against the
// cooldown as configured now, and claimed in one step, so runs arriving together cannot all pass.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { CommandCooldowns } from "../../../server/bot/cooldowns.ts";
import { connectRedis, type RedisClient } from "../../../server/redis/client.ts";
import { RedisCooldowns } from "../../../server/redis/cooldowns.ts";
import { explainSkip, redisAvailable, redisKeyPrefix, sharedRedisServer } from "../../helpers/engines.ts";

explainSkip("redis");

describe("CommandCooldowns (in process)", () => {
  test("runs arriving together: the first claims the cooldown, the rest are told what is left", async () => {
    const local = new CommandCooldowns();
    const now = Date.now();
    const claims = await Promise.all(
      Array.from({ length: 8 }, async () => local.claim(1, "shoutout", 30, now)),
    );
    expect(claims.sort()).toEqual([0, 30, 30, 30, 30, 30, 30, 30]);
  });

  test("a claim given back frees the command at once; only its own claim is given back", () => {
    const local = new CommandCooldowns();
    const began = Date.now();
    expect(local.claim(1, "clip", 30, began)).toBe(0);
    local.release(1, "clip", 30, began - 1);
    expect(local.claim(1, "clip", 30, began + 1)).toBe(30);
    local.release(1, "clip", 30, began);
    expect(local.claim(1, "clip", 30, began + 2)).toBe(0);
    // Without a cooldown nothing is recorded.
    expect(local.claim(1, "dice", 0, began)).toBe(0);
    expect(local.claim(1, "dice", 0, began)).toBe(0);
  });
});

describe.skipIf(!redisAvailable)("RedisCooldowns", () => {
  let clients: RedisClient[];
  const prefix = redisKeyPrefix("cd");
  const instance = (i: number) =>
    new RedisCooldowns({ client: clients[i]!, keyPrefix: prefix, timeoutMs: 500 });
  beforeAll(async () => {
    const { url } = await sharedRedisServer();
    clients = [
      await connectRedis(url, { onError: () => {} }),
      await connectRedis(url, { onError: () => {} }),
    ];
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
  });

  test("runs arriving together on two instances: one claims the cooldown, the rest are told what is left", async () => {
    const instances = [instance(0), instance(1)];
    const now = Date.now();
    const claims = await Promise.all(
      Array.from({ length: 8 }, (_, i) => instances[i % 2]!.claim(1, "shoutout", 30, now + i)),
    );
    expect(claims.sort()).toEqual([0, 30, 30, 30, 30, 30, 30, 30]);
  });

  test("a claim given back frees the command at once, on every instance; only its own claim is given back", async () => {
    const [a, b] = [instance(0), instance(1)];
    const began = Date.now();
    expect(await a.claim(2, "clip", 30, began)).toBe(0);
    await b.release(2, "clip", 30, began);
    await a.release(2, "clip", 30, began - 1);
    expect(await b.claim(2, "clip", 30, began + 1)).toBe(30);
    await a.release(2, "clip", 30, began);
    expect(await b.claim(2, "clip", 30, began + 2)).toBe(0);
    expect(await a.claim(2, "dice", 0, began)).toBe(0);
    expect(await a.claim(2, "dice", 0, began)).toBe(0);
  });

  test("a cooldown lowered (or raised) while resting counts against the new length at once, like the in-process one", async () => {
    const shared = instance(0);
    const local = new CommandCooldowns();
    const began = Date.now();
    expect(await shared.claim(3, "magic8", 600, began)).toBe(0);
    expect(local.claim(3, "magic8", 600, began)).toBe(0);
    for (const [seconds, left] of [
      [600, 600],
      [30, 30],
      [1200, 1200],
    ] as const) {
      expect(await shared.claim(3, "magic8", seconds, began)).toBe(left);
      expect(local.claim(3, "magic8", seconds, began)).toBe(left);
    }
  });
});
