import { describe, expect, test } from "bun:test";
import { chatBudgetRefusal } from "../../../server/chat/budgets.ts";
import { ManualClock } from "../../../server/core/clock.ts";
import { createLogger } from "../../../server/core/log.ts";
import type { MaybePromise } from "../../../server/core/maybe-promise.ts";
import type { QuotaAccount } from "../../../server/limits/account-quotas.ts";
import { ChatterLimits } from "../../../server/limits/chatter-limits.ts";
import { createRateLimits } from "../../../server/limits/rate-limits.ts";
import { SlidingLog } from "../../../server/limits/sliding-log.ts";

/** Native chat's budgets (CONTRACT §6), decided in process on a manual clock. */

/** Whether the budgets admitted (and counted) one answer. */
const chatBudgetsAdmit = async (...args: Parameters<typeof chatBudgetRefusal>) =>
  (await chatBudgetRefusal(...args)) === null;

const log = createLogger({ level: "error", format: "json", write: () => {} });
const account: QuotaAccount = { id: 1, role: "Default", panelLimitOverride: null };
const BROADCASTER = "100001";
const chatter = (chatterId: string, badges: string[] = []) => ({
  chatterId,
  badges,
  broadcasterId: BROADCASTER,
});

function setup() {
  const clock = new ManualClock();
  return { clock, limits: createRateLimits({ clock, log, trustProxy: false }) };
}

async function admitted(times: number, admit: () => MaybePromise<boolean>): Promise<number> {
  let count = 0;
  for (let i = 0; i < times; i++) if (await admit()) count++;
  return count;
}

describe("native chat budgets", () => {
  test("one chatter is answered 3 times per rolling 30 s, per channel", async () => {
    const { clock, limits } = setup();
    const anna = () => chatBudgetsAdmit(limits, account, chatter("100003"));
    expect(await admitted(10, anna)).toBe(3);
    clock.advance(29_999);
    // The fourth says which budget is spent: the viewer's own (the activity feed's "per-viewer limit").
    expect(await chatBudgetRefusal(limits, account, chatter("100003"))).toBe("viewer_limit");
    clock.advance(1);
    expect(await admitted(10, anna)).toBe(3);
    // The same viewer in another channel has a count of its own.
    expect(await chatBudgetsAdmit(limits, { ...account, id: 2 }, chatter("100003"))).toBe(true);
  });

  test("the broadcaster and moderators are not held to it; VIPs and subscribers are", async () => {
    const { limits } = setup();
    expect(await admitted(10, () => chatBudgetsAdmit(limits, account, chatter(BROADCASTER)))).toBe(10);
    expect(await admitted(10, () => chatBudgetsAdmit(limits, account, chatter("7", ["moderator"])))).toBe(10);
    // A lead moderator (Twitch's lead_moderator badge) is a moderator; counted in another channel here.
    const other = { ...account, id: 2 };
    expect(await admitted(10, () => chatBudgetsAdmit(limits, other, chatter("6", ["lead_moderator"])))).toBe(
      10,
    );
    expect(await admitted(10, () => chatBudgetsAdmit(limits, account, chatter("8", ["vip"])))).toBe(3);
    expect(await admitted(10, () => chatBudgetsAdmit(limits, account, chatter("9", ["subscriber"])))).toBe(3);
  });

  test("the channel's chat budget is the role's bot quota per minute, and never touches the API key's", async () => {
    const { clock, limits } = setup();
    let n = 0;
    const someone = () => chatBudgetsAdmit(limits, account, chatter(`viewer_${n++}`));
    expect(await admitted(40, someone)).toBe(30);
    expect(await chatBudgetRefusal(limits, account, chatter(BROADCASTER))).toBe("chat_budget");
    expect(await chatBudgetRefusal(limits, account, chatter("100003"))).toBe("chat_budget");
    expect(limits.accounts.checkBot(account)).toMatchObject({ allowed: true, remaining: 29 });
    // Pro: the 30 already counted leave 30 of its 60.
    expect(
      await admitted(40, () => chatBudgetsAdmit(limits, { ...account, role: "Pro" }, chatter(`v${n++}`))),
    ).toBe(30);
    clock.advance(60_000);
    expect(await someone()).toBe(true);
  });

  test("a refused chatter costs the channel's budget nothing", async () => {
    const { limits } = setup();
    await admitted(50, () => chatBudgetsAdmit(limits, account, chatter("troll")));
    let n = 0;
    expect(await admitted(40, () => chatBudgetsAdmit(limits, account, chatter(`viewer_${n++}`)))).toBe(27);
  });

  test("a chatter refused by the channel's budget keeps their own answers for when it frees", async () => {
    const { clock, limits } = setup();
    let n = 0;
    expect(await admitted(30, () => chatBudgetsAdmit(limits, account, chatter(`viewer_${n++}`)))).toBe(30);
    clock.advance(59_000);
    expect(await admitted(3, () => chatBudgetsAdmit(limits, account, chatter("100003")))).toBe(0);
    clock.advance(1_000);
    expect(await admitted(5, () => chatBudgetsAdmit(limits, account, chatter("100003")))).toBe(3);
  });

  test("a flood of distinct chatters keeps memory bounded", () => {
    const clock = new ManualClock();
    const channel = new SlidingLog<number>({ windowMs: 60_000, clock });
    const chatters = new ChatterLimits(clock, channel, 100);
    const partner = { ...account, role: "Partner" as const };
    for (let i = 0; i < 10_000; i++) {
      chatters.check(partner, `bot_${i}`);
      channel.forget(partner.id);
    }
    expect(chatters.keyCount).toBe(100);
    // The most recent ones are still counted.
    chatters.check(partner, "bot_9999");
    chatters.check(partner, "bot_9999");
    expect(chatters.check(partner, "bot_9999")).toBe("viewer_limit");
  });
});
