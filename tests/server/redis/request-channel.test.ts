/**
 * A question and its answer over a real Redis (redis/request-channel.ts): answered by the instance
 * that serves it; null at once when none does; NoAnswer when the answer does not come in time; junk
 * on the channel never reaches the server.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createLogger } from "../../../server/core/log.ts";
import { NoAnswer, RedisRequestChannel } from "../../../server/redis/request-channel.ts";
import { connectSharedStores, type SharedStores } from "../../../server/redis/shared-stores.ts";
import { explainSkip, type RedisServer, redisAvailable, startRedis } from "../../helpers/engines.ts";

explainSkip("redis");

const isNumber = (value: unknown) => (typeof value === "number" ? value : null);

describe.skipIf(!redisAvailable)("request channel", () => {
  let redis: RedisServer;
  const stores: SharedStores[] = [];

  async function channel(name = "double") {
    const log = createLogger({ level: "error", format: "json", write: () => {} });
    const shared = await connectSharedStores(redis.url, log);
    stores.push(shared);
    return new RedisRequestChannel<number, number>(shared.redis, shared.subscriber, {
      keyPrefix: "test:",
      name,
      timeoutMs: 1000,
      parseQuestion: isNumber,
      parseAnswer: isNumber,
    });
  }

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    for (const shared of stores) await shared.close();
    await redis.stop();
  });

  test("the serving instance answers; once it stops serving, no one does (null)", async () => {
    const server = await channel();
    const asker = await channel();
    const asked: number[] = [];
    const stop = server.serve(async (n) => {
      asked.push(n);
      return n * 2;
    });
    await Bun.sleep(100);
    expect(await Promise.all([asker.ask(21, 2000), asker.ask(5, 2000)])).toEqual([42, 10]);
    stop();
    await Bun.sleep(100);
    expect(await asker.ask(1, 2000)).toBeNull();
    expect(asked).toEqual([21, 5]);
  });

  test("an answer that does not come in time is NoAnswer; junk never reaches the server", async () => {
    const server = await channel("slow");
    const asker = await channel("slow");
    const asked: unknown[] = [];
    server.serve(async (n) => {
      asked.push(n);
      await Bun.sleep(1000);
      return n;
    });
    await Bun.sleep(100);
    await expect(asker.ask(1, 200)).rejects.toBeInstanceOf(NoAnswer);
    const raw = stores[0]!.redis;
    for (const junk of ["{", "null", '{"id":1,"from":"x","q":1}', '{"id":"a","from":"x","q":"1"}'])
      await raw.publish("test:ask:slow", junk);
    await Bun.sleep(100);
    expect(asked).toEqual([1]);
  });
});
