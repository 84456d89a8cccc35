/**
 * The game provider behind several instances: two GameServices (as two instances would hold) share
 * one real Redis. One provider call per key cluster-wide, answers fetched by one instance served by
 * the other, one per-minute budget, and each instance on its own when Redis is away.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemClock } from "../../../server/core/clock.ts";
import { loadConfig } from "../../../server/core/config.ts";
import { createLogger } from "../../../server/core/log.ts";
import type { PlayerQuery } from "../../../server/game/player.ts";
import { createGameService, type GameService } from "../../../server/game/service.ts";
import { connectRedis, type RedisClient } from "../../../server/redis/client.ts";
import { SharedProviderBudget, sharedGameOn } from "../../../server/redis/game-cache.ts";
import { type GameSimulator, startGameSimulator } from "../../../server/sim/game/server.ts";
import {
  explainSkip,
  type RedisServer,
  redisAvailable,
  redisKeyPrefix,
  startRedis,
} from "../../helpers/engines.ts";

explainSkip("redis");

const KESTREL: PlayerQuery = { region: "eu", name: "Kestrel", tag: "EUW" };
const NIGHT_OWL: PlayerQuery = { region: "na", name: "Night Owl", tag: "NA1" };
const TTL_MS = 60_000;

describe.skipIf(!redisAvailable)("game provider answers shared through Redis", () => {
  let redis: RedisServer;
  let sim: GameSimulator;
  let dataDir: string;
  const clients: RedisClient[] = [];

  function instance(prefix: string, budget?: number, clockOffsetMs = 0): GameService {
    const config = loadConfig({ dataDir, env: {} });
    config.game.apiUrl = sim.url;
    config.game.apiKey = sim.apiKey;
    if (budget) config.game.budgetPerMinute = budget;
    const client = clients[clients.length - 1]!;
    return createGameService(
      {
        config,
        clock: { now: () => Date.now() + clockOffsetMs },
        log: createLogger({ level: "error", format: "json", write: () => {} }),
        sharedGame: sharedGameOn({ client, keyPrefix: prefix, timeoutMs: 200 }),
      },
      { maxQueueMs: 50 },
    );
  }

  let lastPrefix = "";
  async function pair(
    budget?: number,
    clockOffsetsMs: [number, number] = [0, 0],
  ): Promise<[GameService, GameService]> {
    const prefix = redisKeyPrefix("game");
    lastPrefix = prefix;
    const services: GameService[] = [];
    for (let i = 0; i < 2; i++) {
      clients.push(await connectRedis(redis.url, { onError: () => {} }));
      services.push(instance(prefix, budget, clockOffsetsMs[i]));
    }
    return services as [GameService, GameService];
  }

  beforeAll(async () => {
    redis = await startRedis();
    dataDir = mkdtempSync(join(tmpdir(), "cuebot-game-shared-"));
  });

  beforeEach(() => {
    sim = startGameSimulator({ clock: systemClock, rateLimitPerMinute: 10_000 });
  });

  afterEach(async () => {
    await sim.stop();
  });

  afterAll(async () => {
    for (const client of clients) if (client.isOpen) client.destroy();
    await redis.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("200 identical cold requests over two instances make one provider call per route", async () => {
    const [a, b] = await pair();
    sim.knobs.latencyMs = 100;
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? a : b).rank(KESTREL, TTL_MS)),
    );
    expect(answers.every((answer) => answer.value.rank.elo === answers[0]!.value.rank.elo)).toBe(true);
    expect(sim.calls.account).toBe(1);
    expect(sim.calls.mmr).toBe(1);
  });

  test("an answer one instance fetched is served by the other without a provider call", async () => {
    const [a, b] = await pair();
    await a.rank(KESTREL, TTL_MS);
    const calls = sim.totalCalls();
    const served = await b.rank(KESTREL, TTL_MS);
    expect(served.stale).toBe(false);
    expect(sim.totalCalls()).toBe(calls);
    // A "no such player" answer is shared as well.
    const missing = { region: "eu", name: "Nobody", tag: "NONE" } as PlayerQuery;
    await expect(a.rank(missing, TTL_MS)).rejects.toMatchObject({ code: "player_not_found" });
    const afterMissing = sim.totalCalls();
    await expect(b.rank(missing, TTL_MS)).rejects.toMatchObject({ code: "player_not_found" });
    expect(sim.totalCalls()).toBe(afterMissing);
  });

  test("an answer's age comes from Redis, not from the clock of the instance that stored it", async () => {
    // A's clock is 5 minutes behind: by its own timestamp the answer would look 5 minutes old to B.
    const [a, b] = await pair(undefined, [-300_000, 0]);
    await a.rank(KESTREL, TTL_MS);
    const calls = sim.totalCalls();
    expect((await b.rank(KESTREL, 30_000)).stale).toBe(false);
    expect(sim.totalCalls()).toBe(calls);
  });

  test("a stored entry that is not exactly an answer is a miss, not a crash", async () => {
    const [a] = await pair();
    const writer = clients[clients.length - 1]!;
    await writer.set(`${lastPrefix}game:account:kestrel#euw`, JSON.stringify({ at: 1 }), { PX: 60_000 });
    await writer.set(
      `${lastPrefix}game:mmr:eu/kestrel#euw`,
      JSON.stringify({ at: 1, missing: { kind: "exploded", message: "?", status: null, code: null } }),
      { PX: 60_000 },
    );
    const served = await a.rank(KESTREL, TTL_MS);
    expect(served.value.account.name).toBe("Kestrel");
    expect(sim.calls.account).toBe(1);
    expect(sim.calls.mmr).toBe(1);
  });

  test("the per-minute budget is one for all instances", async () => {
    const [a, b] = await pair(3);
    // Kestrel costs two calls (account, mmr) on A; Night Owl's account is the third, on B.
    await a.rank(KESTREL, TTL_MS);
    await expect(b.rank(NIGHT_OWL, TTL_MS)).rejects.toMatchObject({ code: "upstream_error" });
    expect(sim.totalCalls()).toBe(3);
  });

  test("callers without an API key share half the budget across instances, an equal part per asking address", async () => {
    const [a, b] = await pair(8);
    const nobody = (i: number): PlayerQuery => ({ region: "eu", name: `Nobody${i}`, tag: "NONE" });
    const found = { code: "player_not_found" };
    const refusal = { code: "upstream_error", headers: { "retry-after": expect.any(String) } };
    // 8 a minute: anonymous callers share 4, each asking address an equal part — whichever instance
    // it asks.
    await expect(a.rank(nobody(1), TTL_MS, "198.51.100.1")).rejects.toMatchObject(found);
    await expect(b.rank(nobody(2), TTL_MS, "198.51.100.2")).rejects.toMatchObject(found);
    // Two addresses asking: 2 each.
    await expect(b.rank(nobody(3), TTL_MS, "198.51.100.1")).rejects.toMatchObject(found);
    await expect(a.rank(nobody(4), TTL_MS, "198.51.100.1")).rejects.toMatchObject(refusal);
    await expect(a.rank(nobody(5), TTL_MS, "198.51.100.3")).rejects.toMatchObject(found);
    // The half is used up.
    await expect(b.rank(nobody(6), TTL_MS, "198.51.100.4")).rejects.toMatchObject(refusal);
    await expect(a.rank(nobody(7), TTL_MS, "198.51.100.5")).rejects.toMatchObject(refusal);
    expect(sim.totalCalls()).toBe(4);
    // Past the anonymous half, addresses are not told apart: Redis holds at most 4 of them.
    expect(await clients[clients.length - 1]!.zCard(`${lastPrefix}game:budget:addresses`)).toBe(4);
    // Key holders keep the rest.
    expect((await b.rank(KESTREL, TTL_MS)).stale).toBe(false);
    expect(sim.totalCalls()).toBe(6);
  });

  test("an instance that has not heard from the provider yet sizes the budget by what another learnt", async () => {
    await sim.stop();
    sim = startGameSimulator({ clock: systemClock, rateLimitPerMinute: 90 });
    const [a, b] = await pair();
    // A learns the key's 90 from the provider's headers and spends 31 calls, past the default 30.
    for (let i = 0; i < 31; i++) {
      await expect(a.rank({ region: "eu", name: `Nobody${i}`, tag: "NONE" }, TTL_MS)).rejects.toMatchObject({
        code: "player_not_found",
      });
    }
    // B has had no provider answer of its own: it still counts against the key's 90, and so does its
    // anonymous half (45, of which 31 calls left room for all).
    expect((await b.rank(KESTREL, TTL_MS)).stale).toBe(false);
    for (let i = 0; i < 20; i++) {
      await expect(
        b.rank({ region: "eu", name: `Anon${i}`, tag: "NONE" }, TTL_MS, `198.51.100.${i}`),
      ).rejects.toMatchObject({ code: "player_not_found" });
    }
    expect(sim.totalCalls()).toBe(53);
  });

  test("with Redis away each instance keeps a budget of its own", async () => {
    const [a] = await pair(2);
    await redis.kill();
    try {
      // Two calls fit (Kestrel's account and rank); the third would pass the per-minute budget.
      await a.rank(KESTREL, TTL_MS);
      await expect(a.rank(NIGHT_OWL, TTL_MS)).rejects.toMatchObject({ code: "upstream_error" });
      expect(sim.totalCalls()).toBe(2);
    } finally {
      await redis.restart();
    }
  });

  test("with Redis away a pause the provider asked for (429) still holds on this instance", async () => {
    const client = await connectRedis(redis.url, { onError: () => {} });
    clients.push(client);
    const budget = new SharedProviderBudget(
      { client, keyPrefix: redisKeyPrefix("pause"), timeoutMs: 200 },
      30,
      {
        maxQueueMs: 50,
        clock: systemClock,
      },
    );
    await redis.kill();
    try {
      await budget.acquire();
      budget.pauseFor(30_000);
      await expect(budget.acquire()).rejects.toMatchObject({ kind: "rate_limited" });
    } finally {
      await redis.restart();
    }
  });

  test("with Redis away each instance fetches by itself", async () => {
    const [a, b] = await pair();
    await redis.kill();
    try {
      expect((await a.rank(NIGHT_OWL, TTL_MS)).stale).toBe(false);
      expect((await b.rank(NIGHT_OWL, TTL_MS)).stale).toBe(false);
      expect(sim.calls.mmr).toBe(2);
    } finally {
      await redis.restart();
    }
  });
});
