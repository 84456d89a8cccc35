/**
 * Native chat on several instances: the holder claims the message id of every line it sends, as
 * incoming messages are claimed (chat/leader.ts), so an instance that reads the echo during the
 * leaders' overlap cannot claim it, and never answers cuebot's own line.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeChatEnabled } from "../../../db/chat.ts";
import type { ChatLeadership } from "../../../server/chat/leader.ts";
import { createLogger } from "../../../server/core/log.ts";
import { saveProviderTokens } from "../../../server/identity/provider-tokens.ts";
import { startLiveLeadership } from "../../../server/live-runtime.ts";
import { connectSharedStores, type SharedStores } from "../../../server/redis/shared-stores.ts";
import { type Context, openContext } from "../../../server/runtime.ts";
import { BASE_SCOPES, READ_CHAT_SCOPE } from "../../../server/twitch/scopes.ts";
import { CHAT_SECOND_MS, type ChatHarness, startChatHarness, waitFor } from "../../helpers/chat.ts";
import { explainSkip, type RedisServer, redisAvailable, startRedis } from "../../helpers/engines.ts";

explainSkip("redis");

describe.skipIf(!redisAvailable)("the echo of a line the chat holder sent", () => {
  let redis: RedisServer;
  let h: ChatHarness;
  let instance: { ctx: Context; stores: SharedStores; leadership: ChatLeadership };

  beforeAll(async () => {
    redis = await startRedis();
    h = await startChatHarness();
    const scopes = [...BASE_SCOPES, READ_CHAT_SCOPE];
    const issued = h.sim.issueUserToken("cuebotdemo", scopes);
    await saveProviderTokens(h.ctx, h.account.id, { ...issued, scopes, expiresIn: 14_400 });
    await writeChatEnabled(h.ctx.db, h.account.id, true, Date.now());
    const log = createLogger({ level: "error", format: "json", write: () => {} });
    const stores = await connectSharedStores(redis.url, log);
    const ctx = await openContext(h.ctx.config, { log, shared: stores });
    const leadership = startLiveLeadership(ctx, stores.store, { secondMs: CHAT_SECOND_MS, ttlMs: 600 });
    instance = { ctx, stores, leadership };
  });

  afterAll(async () => {
    await instance.leadership.stop();
    await instance.ctx.close();
    await instance.stores.close().catch(() => {});
    await h.stop();
    await redis.stop();
  });

  test("is claimed in Redis by the holder, so no other instance may answer it", async () => {
    const { ctx, stores } = instance;
    expect(await waitFor(() => ctx.chat.connected().length === 1, 5000)).toBeTruthy();
    const asked = h.sim.chat.say({ channel: "cuebotdemo", user: "viewer_anna", text: "!coinflip" });
    expect(await h.replyTo(asked)).not.toBeNull();
    const sent = h.sim.chat
      .lines("cuebotdemo")
      .find((l) => l.source === "sent" && l.replyParentMessageId === asked);
    expect(sent).toBeDefined();
    const key = (id: string) => `${stores.store.keyPrefix}chat:seen:${id}`;
    // The claim another instance would try on reading the echo fails: it is taken.
    const echoClaim = await waitFor(() => stores.store.client.get(key(sent?.messageId ?? "")));
    expect(echoClaim).toBeTruthy();
    expect(
      await stores.store.client.set(key(sent?.messageId ?? ""), "other", { NX: true, EX: 60 }),
    ).toBeNull();
  }, 15_000);
});
