import type { QuotaAccount } from "../limits/account-quotas.ts";
import type { RateLimits } from "../limits/rate-limits.ts";
import { userLevelOf } from "./chat-command-input.ts";
import type { ChatMessageEvent } from "./eventsub-message.ts";

/** Held to the per-chatter limit: everyone but the broadcaster and moderators (CONTRACT §6). */
const UNLIMITED_LEVELS: ReadonlySet<string> = new Set(["owner", "moderator"]);

type Chatter = Pick<ChatMessageEvent, "badges" | "chatterId" | "broadcasterId">;

/**
 * Whether a command read from chat may be answered: the chatter is under 3 answers per 30 s, and the
 * channel's chat budget (the role's bot quota per minute) has room. Chat never draws on the API key's
 * bot quota, so no chatter's flood can refuse the streamer's own bots. A refusal counts nothing in
 * the channel's budget.
 */
export async function chatBudgetsAdmit(
  limits: Pick<RateLimits, "accounts" | "chatters">,
  account: QuotaAccount,
  chatter: Chatter,
): Promise<boolean> {
  if (!UNLIMITED_LEVELS.has(userLevelOf(chatter))) {
    if (!(await limits.chatters.check(account.id, chatter.chatterId)).allowed) return false;
  }
  return (await limits.accounts.check("chat", account)).allowed;
}
