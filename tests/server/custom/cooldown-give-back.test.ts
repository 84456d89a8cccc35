/**
 * A custom command's cooldowns given back when a line answers nothing (custom/answers.ts): a store
 * that fails to give one back (the chatter's) never keeps the other (the channel's) held, so the next
 * viewer is still answered, and the failure is logged rather than thrown at the chatter.
 */
import { afterEach, expect, test } from "bun:test";
import type { Account } from "../../../db/accounts.ts";
import { addCustomCommand, type CustomCommand } from "../../../db/custom-commands.ts";
import type { Cooldowns } from "../../../server/bot/cooldowns.ts";
import { answerCustomCommand, cooldownKey } from "../../../server/custom/answers.ts";
import type { ChatMessageEvent } from "../../../server/live/eventsub-message.ts";
import type { Context } from "../../../server/runtime.ts";
import { createTestAccount, createTestContext, type TestContext } from "../../helpers/context.ts";

let t: TestContext | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

const line = (chatterId: string, login: string): ChatMessageEvent => ({
  broadcasterId: "1",
  broadcasterLogin: "streamer",
  chatterId,
  chatterLogin: login,
  chatterName: login,
  messageId: `m-${login}`,
  text: "!hug",
  badges: [],
  replyParentLogin: null,
  sourceBroadcasterId: null,
  emotes: [],
});

/** The context with a cooldown store whose give-back of any chatter's cooldown fails. */
function withFailingUserRelease(ctx: Context): Context {
  const inner = ctx.cooldowns;
  const cooldowns: Cooldowns = {
    claim: (accountId, key, seconds, now) => inner.claim(accountId, key, seconds, now),
    release: (accountId, key, seconds, now) => {
      if (key.includes(":user:")) throw new Error("the store is away");
      return inner.release(accountId, key, seconds, now);
    },
  };
  return Object.create(ctx, { cooldowns: { value: cooldowns } }) as Context;
}

test("a failed give-back of the chatter's cooldown still gives back the channel's", async () => {
  t = await createTestContext();
  const account: Account = (await createTestAccount(t.ctx)).account;
  const input = { name: "hug", response: "$(user) hugs", cooldownSeconds: 30, userCooldownSeconds: 60 };
  const command: CustomCommand = await addCustomCommand(t.ctx.db, account.id, input, Date.now());
  const ctx = withFailingUserRelease(t.ctx);
  const run = (event: ChatMessageEvent, admitted: boolean) =>
    answerCustomCommand(
      { ctx, account, event, level: "everyone", gate: () => (admitted ? null : "viewer_limit") },
      command,
      [],
    );

  // Refused by chat's budgets: nothing is said (the feed says why), and both cooldowns should go back.
  expect(await run(line("501", "viewer_anna"), false)).toEqual({ kind: "refused", reason: "viewer_limit" });
  // The channel's cooldown was given back: the next viewer is answered at once.
  expect(await run(line("502", "viewer_bob"), true)).toEqual({ kind: "reply", text: "viewer_bob hugs" });
  expect(await t.ctx.cooldowns.claim(account.id, cooldownKey("hug"), 30, Date.now())).toBeGreaterThan(0);
  expect(t.logs.some((l) => l.includes("could not be given back"))).toBe(true);
});
