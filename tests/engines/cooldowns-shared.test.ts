// Command cooldowns in Redis count from when the run began, as in process: a command that took four
// seconds to answer does not rest four seconds longer.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { CommandCooldowns, RedisCooldowns } from "../../server/bot/cooldowns.ts";
import { connectRedis, type RedisClient } from "../../server/redis/client.ts";
import { explainSkip, redisAvailable, redisKeyPrefix, sharedRedisServer } from "../helpers/engines.ts";

explainSkip("redis");

describe.skipIf(!redisAvailable)("RedisCooldowns", () => {
  let client: RedisClient;
  beforeAll(async () => {
    client = await connectRedis((await sharedRedisServer()).url, { onError: () => {} });
  });
  afterAll(async () => {
    await client.close();
  });

  test("a cooldown started for a run that began 4 s ago has 6 of its 10 s left, like the in-process one", async () => {
    const shared = new RedisCooldowns({ client, keyPrefix: redisKeyPrefix("cd"), timeoutMs: 200 });
    const local = new CommandCooldowns();
    const began = Date.now() - 4000;
    await shared.start(1, "shoutout", 10, began);
    local.start(1, "shoutout", 10, began);
    expect(await shared.remainingSeconds(1, "shoutout", 10)).toBe(6);
    expect(local.remainingSeconds(1, "shoutout", 10, Date.now())).toBe(6);
    // A run slower than its cooldown leaves none.
    await shared.start(2, "clip", 3, Date.now() - 5000);
    expect(await shared.remainingSeconds(2, "clip", 3)).toBe(0);
  });

  test("a cooldown lowered (or raised) while resting counts against the new length at once, like the in-process one", async () => {
    const shared = new RedisCooldowns({ client, keyPrefix: redisKeyPrefix("cd"), timeoutMs: 200 });
    const local = new CommandCooldowns();
    const began = Date.now() - 10_000;
    await shared.start(1, "magic8", 600, began);
    local.start(1, "magic8", 600, began);
    for (const [seconds, left] of [
      [600, 590],
      [30, 20],
      [5, 0],
      [0, 0],
      [1200, 1190],
    ] as const) {
      expect(await shared.remainingSeconds(1, "magic8", seconds)).toBe(left);
      expect(local.remainingSeconds(1, "magic8", seconds, Date.now())).toBe(left);
    }
  });
});
