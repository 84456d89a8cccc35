/**
 * Native chat on several instances: exactly one holds the EventSub connection (the Redis chat lease),
 * a standby takes over when the holder dies, and a chat command is answered once. Two contexts on one
 * data folder, each with its own Redis connections, against the Twitch simulator and a real Redis.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeChatEnabled } from "../../../db/chat.ts";
import { saveProviderTokens } from "../../../server/identity/provider-tokens.ts";
import { BASE_SCOPES, READ_CHAT_SCOPE } from "../../../server/twitch/scopes.ts";
import { type ChatHarness, startChatHarness, waitFor } from "../../helpers/chat.ts";
import { explainSkip, type RedisServer, redisAvailable, startRedis } from "../../helpers/engines.ts";
import { LeaseInstances } from "../../helpers/instances.ts";

explainSkip("redis");

const TTL_MS = 600;

describe.skipIf(!redisAvailable)("native chat on two instances", () => {
  let redis: RedisServer;
  let h: ChatHarness;
  let instances: LeaseInstances;

  const instance = (ttlMs?: number) => instances.start(ttlMs);

  const repliesTo = (messageId: string) =>
    h.sim.chat.sent().filter((s) => s.replyParentMessageId === messageId && s.isSent).length;

  beforeAll(async () => {
    redis = await startRedis();
    h = await startChatHarness();
    instances = new LeaseInstances(h.ctx.config, redis.url, TTL_MS);
    const scopes = [...BASE_SCOPES, READ_CHAT_SCOPE];
    const issued = h.sim.issueUserToken("cuebotdemo", scopes);
    await saveProviderTokens(h.ctx, h.account.id, { ...issued, scopes, expiresIn: 14_400 });
    await writeChatEnabled(h.ctx.db, h.account.id, true, Date.now());
  });

  afterAll(async () => {
    await instances.stopAll();
    await h.stop();
    await redis.stop();
  });

  test("one instance holds chat, a command is answered once, and a standby takes over when the holder dies", async () => {
    const a = await instance();
    expect(await waitFor(() => a.leadership.leading() && a.ctx.chat.connected().length === 1, 5000)).toBe(
      true,
    );
    const b = await instance();
    // B polls the lease several times and stays a standby while A renews.
    await Bun.sleep(TTL_MS);
    expect(b.leadership.leading()).toBe(false);
    expect(b.ctx.chat.connected()).toEqual([]);
    // The dashboard on B shows A's live state, read from the shared database.
    expect((await b.ctx.chat.status(h.account.id)).state).toBe("connected");

    const first = h.sim.chat.say({ channel: "cuebotdemo", user: "viewer_anna", text: "!coinflip" });
    expect(await h.replyTo(first)).not.toBeNull();

    // A dies without a word: its Redis connections are gone, so it can renew no more.
    a.stores.redis.destroy();
    a.stores.subscriber.destroy();
    expect(
      await waitFor(() => b.leadership.leading() && b.ctx.chat.connected().length === 1, 5 * TTL_MS),
    ).toBe(true);
    // A stopped acting once its lease could have ended.
    expect(await waitFor(() => !a.leadership.leading() && a.ctx.chat.connected().length === 0, 2000)).toBe(
      true,
    );

    // Stepping down wrote nothing over the new holder's state (looked at once A's closing had time to write).
    await Bun.sleep(500);
    expect((await a.ctx.chat.status(h.account.id)).state).toBe("connected");

    const second = h.sim.chat.say({ channel: "cuebotdemo", user: "viewer_anna", text: "!coinflip" });
    expect(await h.replyTo(second)).not.toBeNull();
    await Bun.sleep(200);
    expect(repliesTo(first)).toBe(1);
    expect(repliesTo(second)).toBe(1);
  }, 20_000);

  test("a holder that stops hands chat over at once; with Redis away it stops and says why", async () => {
    for (const { leadership } of instances.started) await leadership.stop();
    // A long lease: without a release, a successor would wait for it to run out (6 s).
    const c = await instance(6000);
    expect(await waitFor(() => c.leadership.leading(), 10_000)).toBe(true);
    const d = await instance(6000);
    await Bun.sleep(100);
    expect(d.leadership.leading()).toBe(false);
    await c.leadership.stop();
    // D polls every 2 s; the lease is free at its next poll (well before the 6 s it would last). Chat
    // then connects, which takes its own time on a loaded machine.
    expect(await waitFor(() => d.leadership.leading(), 4000)).toBe(true);
    expect(await waitFor(() => d.ctx.chat.connected().length === 1, 10_000)).toBe(true);

    await redis.kill();
    try {
      // D cannot renew; it stops before its lease could have ended, and the stored state says why.
      expect(await waitFor(() => !d.leadership.leading(), 8000)).toBe(true);
      // It lets go first and writes the state as its connections close (slower on PostgreSQL).
      const stored = () => c.ctx.chat.status(h.account.id);
      expect(await waitFor(async () => (await stored()).state === "error", 10_000)).toBe(true);
      expect((await stored()).reason).toContain("Redis");
    } finally {
      await redis.restart();
    }
  }, 30_000);
});
