/**
 * Moderation on several instances: only the chat lease holder judges and acts (one deletion and one
 * log entry per caught line), and offences are shared through Redis, so a chatter caught once before
 * a handover is timed out by the instance that takes over.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeChatEnabled } from "../../../db/chat.ts";
import { listModerationLog, setModerationEnabled } from "../../../db/moderation.ts";
import { saveProviderTokens } from "../../../server/identity/provider-tokens.ts";
import { BASE_SCOPES, MODERATION_EXTRA_SCOPES, READ_CHAT_SCOPE } from "../../../server/twitch/scopes.ts";
import { type ChatHarness, startChatHarness, waitFor } from "../../helpers/chat.ts";
import { explainSkip, type RedisServer, redisAvailable, startRedis } from "../../helpers/engines.ts";
import { type LeaseInstance, LeaseInstances } from "../../helpers/instances.ts";

explainSkip("redis");

const TTL_MS = 600;

describe.skipIf(!redisAvailable)("moderation on two instances", () => {
  let redis: RedisServer;
  let h: ChatHarness;
  let instances: LeaseInstances;

  const instance = (ttlMs?: number) => instances.start(ttlMs);

  // In memory: the stored status may still say the former holder's "connected" for a moment.
  const connectedOn = (i: LeaseInstance) => () =>
    i.leadership.leading() && i.ctx.chat.connected().some((c) => c.accountId === h.account.id);

  const log = () => listModerationLog(h.ctx.db, h.account.id, { before: null, limit: 50 });

  beforeAll(async () => {
    redis = await startRedis();
    h = await startChatHarness();
    instances = new LeaseInstances(h.ctx.config, redis.url, TTL_MS);
    const scopes = [...BASE_SCOPES, READ_CHAT_SCOPE, ...MODERATION_EXTRA_SCOPES];
    const issued = h.sim.issueUserToken("cuebotdemo", scopes);
    await saveProviderTokens(h.ctx, h.account.id, { ...issued, scopes, expiresIn: 14_400 });
    await writeChatEnabled(h.ctx.db, h.account.id, true, Date.now());
    await setModerationEnabled(h.ctx.db, h.account.id, true, Date.now());
  });

  afterAll(async () => {
    await instances.stopAll();
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
    expect(await waitFor(() => line()?.deleted === true, 10_000)).toBe(true);
    expect(await waitFor(async () => (await log()).length > 0, 10_000)).toBe(true);
    await Bun.sleep(200);
    expect((await log()).map((e) => e.action)).toEqual(["warned"]);

    // A dies without a word; B takes chat over and, with it, moderation.
    a.stores.redis.destroy();
    a.stores.subscriber.destroy();
    expect(await waitFor(connectedOn(b), 5 * TTL_MS + 3000)).toBe(true);

    h.sim.chat.say({ channel: "cuebotdemo", user: "subdave", text: "follow me at twitch-promo.xyz again" });
    expect(
      await waitFor(() => h.sim.world.bans.find((ban) => ban.user_id === "100006"), 10_000),
    ).toBeTruthy();
    expect(await waitFor(async () => (await log()).length > 1, 10_000)).toBe(true);
    expect((await log()).map((e) => e.action)).toEqual(["timeout", "warned"]);
  }, 45_000);
});
