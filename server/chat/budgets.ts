import type { MaybePromise } from "../core/maybe-promise.ts";
import type { QuotaAccount } from "../limits/account-quotas.ts";
import type { ChatBudgetRefusal } from "../limits/chatter-limits.ts";
import type { RateLimits } from "../limits/rate-limits.ts";
import type { ChatMessageEvent } from "../live/eventsub-message.ts";
import { userLevelOf } from "./chat-command-input.ts";

export type { ChatBudgetRefusal } from "../limits/chatter-limits.ts";

/** Held to the per-chatter limit: everyone but the broadcaster and moderators (CONTRACT §6). */
const UNLIMITED_LEVELS: ReadonlySet<string> = new Set(["owner", "moderator"]);

type Chatter = Pick<ChatMessageEvent, "badges" | "chatterId" | "broadcasterId">;

/**
 * Whether a command read from chat may be answered, counting the answer (null), or which budget is
 * spent (`viewer_limit`: the chatter had 3 answers in 30 s; `chat_budget`: the channel's chat budget,
 * the role's bot quota per minute, is used up): both are counted, or neither. Asked only once the
 * command is enabled and its cooldown claimed (the runner's `gate`), so lines that get no reply cost
 * nothing. Chat never draws on the API key's bot quota, so no chatter's flood can refuse the
 * streamer's own bots.
 */
export function chatBudgetRefusal(
  limits: Pick<RateLimits, "chatters">,
  account: QuotaAccount,
  chatter: Chatter,
): MaybePromise<ChatBudgetRefusal | null> {
  const held = !UNLIMITED_LEVELS.has(userLevelOf(chatter));
  return limits.chatters.check(account, held ? chatter.chatterId : null);
}
