/**
 * Two instances sharing a database and a Redis refresh the same expired Twitch token at the same
 * moment (both start their hourly validation together): one refresh reaches Twitch, the other takes
 * its tokens, and the streamer stays logged in.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { findAccountByLogin } from "../../../db/accounts.ts";
import { loadProviderTokens } from "../../../db/oauth-tokens.ts";
import { createLogger } from "../../../server/core/log.ts";
import { refreshUserToken } from "../../../server/identity/provider-tokens.ts";
import { connectSharedStores, type SharedStores } from "../../../server/redis/shared-stores.ts";
import { type Context, openContext } from "../../../server/runtime.ts";
import { explainSkip, type RedisServer, redisAvailable, startRedis } from "../../helpers/engines.ts";
import { type IdentityHarness, startIdentityHarness } from "../../helpers/twitch.ts";

explainSkip("redis");

describe.skipIf(!redisAvailable)("token refresh on two instances", () => {
  let redis: RedisServer;
  let h: IdentityHarness;
  const opened: { ctx: Context; stores: SharedStores }[] = [];

  async function instance(): Promise<Context> {
    const log = createLogger({ level: "error", format: "json", write: () => {} });
    const stores = await connectSharedStores(redis.url, log);
    const ctx = await openContext(h.ctx.config, { log, shared: stores, clock: h.clock });
    opened.push({ ctx, stores });
    return ctx;
  }

  beforeAll(async () => {
    redis = await startRedis();
    h = await startIdentityHarness();
  });

  afterAll(async () => {
    for (const { ctx, stores } of opened) {
      await ctx.close();
      await stores.close();
    }
    await h.stop();
    await redis.stop();
  });

  test("one refresh reaches Twitch; the other instance takes its tokens; nobody is logged out", async () => {
    await h.login("cuebotdemo");
    const account = (await findAccountByLogin(h.ctx.db, "cuebotdemo"))!;
    const [a, b] = [await instance(), await instance()];
    const before = (await loadProviderTokens(h.ctx.db, h.ctx.secrets, account.id))!;
    const tokenCalls = () => h.sim.calls.get("POST /oauth2/token") ?? 0;
    const callsBefore = tokenCalls();
    // Slow answers widen the window in which both would spend the same refresh token.
    h.sim.knobs.latencyMs = 100;
    const [fromA, fromB] = await Promise.all([refreshUserToken(a, account), refreshUserToken(b, account)]);
    h.sim.knobs.latencyMs = 0;
    expect(fromA).toBe(fromB);
    expect(tokenCalls() - callsBefore).toBe(1);
    const after = (await loadProviderTokens(h.ctx.db, h.ctx.secrets, account.id))!;
    expect(after.accessToken).toBe(fromA);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect((await findAccountByLogin(h.ctx.db, "cuebotdemo"))!.needsReauth).toBe(false);
  });
});
