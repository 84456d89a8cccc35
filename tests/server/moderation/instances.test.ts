/**
 * Moderation on several instances: only the chat lease holder judges and acts (one deletion and one
 * log entry per caught line), and offences are shared through Redis, so a chatter caught once before
 * a handover is timed out by the instance that takes over.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeChatEnabled } from "../../../db/chat.ts";
import { listModerationLog, setModerationEnabled } from "../../../db/moderation.ts";
import type { ChatLeadership } from "../../../server/chat/leader.ts";
import { createLogger } from "../../../server/core/log.ts";
import { saveProviderTokens } from "../../../server/identity/provider-tokens.ts";
import { startLiveLeadership } from "../../../server/live-runtime.ts";
import { connectSharedStores, type SharedStores } from "../../../server/redis/shared-stores.ts";
import { type Context, openContext } from "../../../server/runtime.ts";
import { BASE_SCOPES, MODERATION_EXTRA_SCOPES, READ_CHAT_SCOPE } from "../../../server/twitch/scopes.ts";
import { CHAT_SECOND_MS, type ChatHarness, startChatHarness, waitFor } from "../../helpers/chat.ts";
import { explainSkip, type RedisServer, redisAvailable, startRedis } from "../../helpers/engines.ts";

explainSkip("redis");

const TTL_MS = 600;

interface Instance {
  ctx: Context;
  stores: SharedStores;
  leadership: ChatLeadership;
}

describe.skipIf(!redisAvailable)("moderation on two instances", () => {
  let redis: RedisServer;
  let h: ChatHarness;
  const instances: Instance[] = [];

  async function instance(): Promise<Instance> {
    const log = createLogger({ level: "error", format: "json", write: () => {} });
    const stores = await connectSharedStores(redis.url, log);
    const ctx = await openContext(h.ctx.config, { log, shared: stores });
    const leadership = startLiveLeadership(ctx, stores.store, { secondMs: CHAT_SECOND_MS, ttlMs: TTL_MS });
    const started = { ctx, stores, leadership };
    instances.push(started);
    return started;
  }

  const connectedOn = (i: Instance) => async () =>
    i.leadership.leading() && (await i.ctx.chat.status(h.account.id)).state === "connected";

  const log = () => listModerationLog(h.ctx.db, h.account.id, { before: null, limit: 50 });

  beforeAll(async () => {
    redis = await startRedis();
    h = await startChatHarness();
    const scopes = [...BASE_SCOPES, READ_CHAT_SCOPE, ...MODERATION_EXTRA_SCOPES];
    const issued = h.sim.issueUserToken("cuebotdemo", scopes);
    await saveProviderTokens(h.ctx, h.account.id, { ...issued, scopes, expiresIn: 14_400 });
    await writeChatEnabled(h.ctx.db, h.account.id, true, Date.now());
    await setModerationEnabled(h.ctx.db, h.account.id, true, Date.now());
  });

  afterAll(async () => {
    for (const { ctx, stores, leadership } of instances) {
      await leadership.stop();
      await ctx.close();
      await stores.close().catch(() => {});
    }
    await h.stop();
    await redis.stop();
  });

  test("one instance acts on each line; after a handover the chatter's earlier offence still counts", async () => {
    const a = await instance();
    expect(await waitFor(connectedOn(a), 5000)).toBe(true);
    const b = await instance();
    await Bun.sleep(TTL_MS);
    expect(b.leadership.leading()).toBe(false);

    const first = h.sim.chat.say({
      channel: "cuebotdemo",
      user: "subdave",
      text: "follow me at twitch-promo.xyz",
    });
    const line = () => h.sim.chat.lines("cuebotdemo").find((l) => l.messageId === first);
    expect(await waitFor(() => line()?.deleted === true, 3000)).toBe(true);
    expect(await waitFor(async () => (await log()).length > 0, 3000)).toBe(true);
    await Bun.sleep(200);
    expect((await log()).map((e) => e.action)).toEqual(["warned"]);

    // A dies without a word; B takes chat over and, with it, moderation.
    a.stores.redis.destroy();
    a.stores.subscriber.destroy();
    expect(await waitFor(connectedOn(b), 5 * TTL_MS + 3000)).toBe(true);

    h.sim.chat.say({ channel: "cuebotdemo", user: "subdave", text: "follow me at twitch-promo.xyz again" });
    expect(await waitFor(() => h.sim.world.bans.find((ban) => ban.user_id === "100006"), 3000)).toBeTruthy();
    expect(await waitFor(async () => (await log()).length > 1, 3000)).toBe(true);
    expect((await log()).map((e) => e.action)).toEqual(["timeout", "warned"]);
  }, 30_000);
});
