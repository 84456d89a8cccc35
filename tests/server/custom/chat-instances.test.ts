/**
 * The chat bot on two instances sharing Redis and the database (as leader.test.ts runs them): counts
 * exact under concurrent `!deaths +`, a custom command's cooldown (global or per user) claimed on one
 * holding on the other, and its key apart from the built-ins'.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { addCustomCommand, getCustomCommand } from "../../../db/custom-commands.ts";
import { createLogger } from "../../../server/core/log.ts";
import { type CustomLine, readCustomLine, runCustomLine } from "../../../server/custom/service.ts";
import type { ChatMessageEvent } from "../../../server/live/eventsub-message.ts";
import { connectSharedStores, type SharedStores } from "../../../server/redis/shared-stores.ts";
import { type Context, openContext } from "../../../server/runtime.ts";
import { SIM_IDS } from "../../../server/sim/twitch/world.ts";
import { type ChatHarness, startChatHarness, waitFor } from "../../helpers/chat.ts";
import { explainSkip, type RedisServer, redisAvailable, startRedis } from "../../helpers/engines.ts";

explainSkip("redis");

describe.skipIf(!redisAvailable)("the chat bot on two instances", () => {
  let redis: RedisServer;
  let h: ChatHarness;
  const instances: { ctx: Context; stores: SharedStores }[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    h = await startChatHarness();
    const log = createLogger({ level: "error", format: "json", write: () => {} });
    for (let i = 0; i < 2; i++) {
      const stores = await connectSharedStores(redis.url, log);
      instances.push({ ctx: await openContext(h.ctx.config, { log, shared: stores }), stores });
    }
  });

  afterAll(async () => {
    for (const { ctx, stores } of instances) {
      await ctx.close();
      await stores.close().catch(() => {});
    }
    await h.stop();
    await redis.stop();
  });

  let messages = 0;
  const line = (text: string, chatter: { login: string; badges: string[] }): ChatMessageEvent => ({
    broadcasterId: SIM_IDS.demo,
    broadcasterLogin: "cuebotdemo",
    chatterId: String(300_000 + chatter.login.length),
    chatterLogin: chatter.login,
    chatterName: chatter.login,
    messageId: `m${++messages}`,
    text,
    badges: chatter.badges,
    replyParentLogin: null,
    sourceBroadcasterId: null,
    emotes: [],
  });
  const MOD = { login: "mod_mia", badges: ["moderator"] };
  const VIEWER = { login: "viewer_zed", badges: [] };

  /** A line handled by instance `i` as its dispatch would: read, then run; the reply or null. */
  async function on(i: number, event: ChatMessageEvent): Promise<string | null> {
    const { ctx } = instances[i] as { ctx: Context };
    ctx.externalChanges.check();
    const read = (await readCustomLine(ctx, h.account, event, new Set())) as CustomLine | null;
    if (!read) return null;
    const run = {
      ctx,
      account: h.account,
      event,
      level: read.level,
      gate: () => null,
      builtIns: new Set<string>(),
    };
    const outcome = await runCustomLine(run, read);
    return outcome?.kind === "reply" ? outcome.text : null;
  }

  /** Each instance hears of a new command (PostgreSQL's notification, SQLite's data_version). */
  async function expectHeardOf(name: string): Promise<void> {
    for (const { ctx } of instances) {
      const seen = await waitFor(() => {
        ctx.externalChanges.check();
        return Promise.resolve(ctx.chatBot.commands(h.account.id)).then((commands) => commands.has(name));
      });
      expect(seen).toBe(true);
    }
  }

  test("50 concurrent !deaths + split over both end at exactly +50, each reply a distinct count", async () => {
    await addCustomCommand(
      h.ctx.db,
      h.account.id,
      { name: "deaths", response: "Deaths: $(count)" },
      Date.now(),
    );
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) => on(i % 2, line("!deaths +", MOD))),
    );
    const counts = replies.map((text) => Number(/now (\d+)\./.exec(text ?? "")?.[1])).sort((a, b) => a - b);
    expect(counts).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    // Moderators' uses (not held to the cooldown) count exactly too.
    const uses = await Promise.all(Array.from({ length: 20 }, (_, i) => on(i % 2, line("!deaths", MOD))));
    expect(new Set(uses).size).toBe(20);
    expect((await getCustomCommand(h.ctx.db, h.account.id, "deaths"))?.count).toBe(70);
  });

  test("a cooldown claimed on one instance holds on the other, apart from the built-in of the same name", async () => {
    await addCustomCommand(
      h.ctx.db,
      h.account.id,
      { name: "dice", response: "custom dice", cooldownSeconds: 60 },
      Date.now(),
    );
    await expectHeardOf("dice");
    // The built-in !dice resting on instance 0 does not rest the custom one (the built-in is off here).
    const { ctx } = instances[0] as { ctx: Context };
    expect(await ctx.cooldowns.claim(h.account.id, "dice", 60, Date.now())).toBe(0);
    expect(await on(0, line("!dice", VIEWER))).toBe("custom dice");
    expect(await on(1, line("!dice", VIEWER))).toBeNull();
    expect(await on(1, line("!dice", MOD))).toBe("custom dice");
  });

  test("a per-user cooldown claimed on one instance holds for that chatter on the other, not for others", async () => {
    await addCustomCommand(
      h.ctx.db,
      h.account.id,
      { name: "hug", response: "$(user) hugs", cooldownSeconds: 0, userCooldownSeconds: 60 },
      Date.now(),
    );
    await expectHeardOf("hug");
    // Another chatter (the line's chatter id follows the login's length).
    const OTHER = { login: "viewer_annie", badges: [] };
    expect(await on(0, line("!hug", VIEWER))).toBe("viewer_zed hugs");
    expect(await on(1, line("!hug", VIEWER))).toBeNull();
    expect(await on(0, line("!hug", VIEWER))).toBeNull();
    expect(await on(1, line("!hug", OTHER))).toBe("viewer_annie hugs");
    expect(await on(0, line("!hug", OTHER))).toBeNull();
    expect(await on(1, line("!hug", MOD))).toBe("mod_mia hugs");
    expect(await on(0, line("!hug", MOD))).toBe("mod_mia hugs");
  });
});
