import { afterAll, beforeAll } from "bun:test";
import { writeObsSettings } from "../../db/obs.ts";
import type { ChatLeadership } from "../../server/chat/leader.ts";
import type { Config } from "../../server/core/config.ts";
import { createLogger } from "../../server/core/log.ts";
import { startLiveLeadership } from "../../server/live-runtime.ts";
import { connectSharedStores, type SharedStores } from "../../server/redis/shared-stores.ts";
import { type Context, openContext } from "../../server/runtime.ts";
import { type ObsSimulator, startObsSimulator } from "../../server/sim/obs/server.ts";
import { CHAT_SECOND_MS, type ChatHarness, startChatHarness } from "./chat.ts";
import { type RedisServer, startRedis } from "./engines.ts";

/** One server of several on the same data and Redis, with the live layer under the chat lease. */
export interface LeaseInstance {
  ctx: Context;
  stores: SharedStores;
  leadership: ChatLeadership;
}

/**
 * Instances started as `serve --redis-url` starts them (tests of chat, alerts and moderation on
 * several instances), each with its own Redis connections, its lease renewed every `ttlMs`.
 */
export class LeaseInstances {
  readonly #started: LeaseInstance[] = [];

  constructor(
    private readonly config: Config,
    private readonly redisUrl: string,
    private readonly ttlMs: number,
  ) {}

  async start(ttlMs = this.ttlMs): Promise<LeaseInstance> {
    const log = createLogger({ level: "error", format: "json", write: () => {} });
    const stores = await connectSharedStores(this.redisUrl, log);
    const ctx = await openContext(this.config, { log, shared: stores });
    const leadership = startLiveLeadership(ctx, stores.store, { secondMs: CHAT_SECOND_MS, ttlMs });
    const started = { ctx, stores, leadership };
    this.#started.push(started);
    return started;
  }

  /** The instances started so far, oldest first. */
  get started(): readonly LeaseInstance[] {
    return this.#started;
  }

  /** Stops every instance started (one whose Redis was cut stops all the same). */
  async stopAll(): Promise<void> {
    for (const { ctx, stores, leadership } of this.#started.splice(0)) {
      await leadership.stop();
      await ctx.close();
      await stores.close().catch(() => {});
    }
  }
}

/** What `obsOnInstances` starts; filled before the describe's first test. */
export class ObsOnInstances {
  redis!: RedisServer;
  h!: ChatHarness;
  instances!: LeaseInstances;
  obs!: ObsSimulator;
}

/**
 * Called inside a describe: Redis, cuebotdemo's harness set to a simulated OBS (with `password`,
 * reached by the server) and lease instances of `ttlMs`, started before its tests and stopped after.
 */
export function obsOnInstances(ttlMs: number, password: string): ObsOnInstances {
  const env = new ObsOnInstances();
  beforeAll(async () => {
    env.redis = await startRedis();
    env.h = await startChatHarness();
    env.obs = startObsSimulator({ password });
    env.instances = new LeaseInstances(env.h.ctx.config, env.redis.url, ttlMs);
    const settings = { enabled: true, url: env.obs.url, via: "server" as const, password };
    await writeObsSettings(env.h.ctx.db, env.h.ctx.secrets, env.h.account.id, settings, Date.now());
  });
  afterAll(async () => {
    await env.instances.stopAll();
    await env.obs.kill();
    await env.h.stop();
    await env.redis.stop();
  });
  return env;
}
