// What moderation remembers of chatters behaves the same in process and in Redis, where every
// instance (and the next chat lease holder) sees the same offences, permits and warnings.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  MemoryModerationBook,
  type ModerationBook,
  OFFENCE_WINDOW_MS,
} from "../../../server/moderation/book.ts";
import { connectRedis, type RedisClient } from "../../../server/redis/client.ts";
import { RedisModerationBook } from "../../../server/redis/moderation-book.ts";
import { explainSkip, redisAvailable, redisKeyPrefix, sharedRedisServer } from "../../helpers/engines.ts";

explainSkip("redis");

/** The same questions to two books that should agree (one instance and its successor, say). */
async function sharedBehaviour(first: ModerationBook, second: ModerationBook): Promise<void> {
  const now = Date.now();
  expect(await first.offend(1, "u1", now)).toBe(false);
  expect(await second.offend(1, "u1", now + 1_000)).toBe(true);
  expect(await second.offend(2, "u1", now + 1_000)).toBe(false);
  expect(await second.permitted(1, "anna", now)).toBe(false);
  await first.permit(1, "anna", now + 60_000, now);
  expect(await second.permitted(1, "anna", now + 1)).toBe(true);
  expect(await second.permitted(2, "anna", now + 1)).toBe(false);
  expect(await first.mayWarn(1, "u1", now)).toBe(true);
  expect(await second.mayWarn(1, "u1", now + 1)).toBe(false);
  expect(await second.mayWarn(1, "u2", now + 1)).toBe(true);
}

describe("MemoryModerationBook", () => {
  test("a repeat within the hour, a permit for its time, one warning per 30 s", async () => {
    const book = new MemoryModerationBook();
    await sharedBehaviour(book, book);
    const now = Date.now();
    expect(book.offend(3, "u", now)).toBe(false);
    expect(book.offend(3, "u", now + OFFENCE_WINDOW_MS + 1)).toBe(false);
    book.permit(3, "bob", now + 60_000, now);
    expect(book.permitted(3, "bob", now + 60_001)).toBe(false);
    expect(book.mayWarn(3, "u", now)).toBe(true);
    expect(book.mayWarn(3, "u", now + 30_001)).toBe(true);
  });
});

describe.skipIf(!redisAvailable)("RedisModerationBook", () => {
  let clients: RedisClient[];
  const prefix = redisKeyPrefix("mod");
  const book = (i: number) =>
    new RedisModerationBook({ client: clients[i]!, keyPrefix: prefix, timeoutMs: 500 });
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

  test("two instances share offences, permits and warnings", async () => {
    await sharedBehaviour(book(0), book(1));
  });

  test("a permit ends when its time is up", async () => {
    const now = Date.now();
    await book(0).permit(9, "eve", now + 50, now);
    expect(await book(1).permitted(9, "eve", now)).toBe(true);
    await Bun.sleep(80);
    expect(await book(1).permitted(9, "eve", Date.now())).toBe(false);
  });
});
