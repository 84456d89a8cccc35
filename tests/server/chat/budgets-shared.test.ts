// Native chat's budgets with --redis-url: every instance counts one chatter's answers and one
// channel's chat budget together, apart from the API key's bot quota.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chatBudgetRefusal } from "../../../server/chat/budgets.ts";
import { systemClock } from "../../../server/core/clock.ts";
import { createLogger } from "../../../server/core/log.ts";
import type { RateLimits } from "../../../server/limits/rate-limits.ts";
import { connectRedis, type RedisClient } from "../../../server/redis/client.ts";
import { createSharedRateLimits } from "../../../server/redis/limits/rate-limits.ts";
import { explainSkip, redisAvailable, redisKeyPrefix, sharedRedisServer } from "../../helpers/engines.ts";

/** Whether the budgets admitted (and counted) one answer. */
const chatBudgetsAdmit = async (...args: Parameters<typeof chatBudgetRefusal>) =>
  (await chatBudgetRefusal(...args)) === null;

explainSkip("redis");

const log = createLogger({ level: "error", format: "json", write: () => {} });
const account = { id: 3, role: "Default" as const, panelLimitOverride: null };
const chatter = (chatterId: string, badges: string[] = []) => ({
  chatterId,
  badges,
  broadcasterId: "100001",
});

describe.skipIf(!redisAvailable)("native chat budgets in Redis", () => {
  const clients: RedisClient[] = [];
  let instances: [RateLimits, RateLimits];
  const keyPrefix = redisKeyPrefix("chat");
  beforeAll(async () => {
    const { url } = await sharedRedisServer();
    const limits = async () => {
      const client = await connectRedis(url, { onError: () => {} });
      clients.push(client);
      return createSharedRateLimits(
        { client, keyPrefix, timeoutMs: 500 },
        {
          clock: systemClock,
          log,
          trustProxy: false,
        },
      );
    };
    instances = [await limits(), await limits()];
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
  });

  test("two instances answer one chatter 3 times between them; a moderator is not held to it", async () => {
    const answers = [];
    for (let i = 0; i < 8; i++)
      answers.push(await chatBudgetsAdmit(instances[i % 2]!, account, chatter("100003")));
    expect(answers.filter(Boolean)).toHaveLength(3);
    expect(await chatBudgetRefusal(instances[0], account, chatter("100003"))).toBe("viewer_limit");
    let mod = 0;
    for (let i = 0; i < 8; i++)
      if (await chatBudgetsAdmit(instances[i % 2]!, account, chatter("100004", ["moderator"]))) mod++;
    expect(mod).toBe(8);
  });

  test("the channel's chat budget is shared, and the API key's bot quota is left whole", async () => {
    const other = { ...account, id: 4 };
    let admitted = 0;
    for (let i = 0; i < 40; i++)
      if (await chatBudgetsAdmit(instances[i % 2]!, other, chatter(`v${i}`))) admitted++;
    expect(admitted).toBe(30);
    expect(await instances[1].accounts.checkBot(other)).toMatchObject({ allowed: true, remaining: 29 });
  });

  test("a chatter's lines arriving together on two instances: 3 answers, counted once each in the channel", async () => {
    const other = { ...account, id: 5 };
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => chatBudgetsAdmit(instances[i % 2]!, other, chatter("100003"))),
    );
    expect(answers.filter(Boolean)).toHaveLength(3);
    expect(await clients[0]!.zCard(`${keyPrefix}rl:chat:5`)).toBe(3);
  });

  test("a chatter refused by the channel's full budget has spent none of their own answers", async () => {
    const other = { ...account, id: 6 };
    const all = await Promise.all(
      Array.from({ length: 32 }, (_, i) => chatBudgetsAdmit(instances[i % 2]!, other, chatter(`w${i}`))),
    );
    expect(all.filter(Boolean)).toHaveLength(30);
    expect(await chatBudgetRefusal(instances[0], other, chatter("100003"))).toBe("chat_budget");
    expect(await clients[0]!.zCard(`${keyPrefix}rl:chatter:6:100003`)).toBe(0);
  });
});
