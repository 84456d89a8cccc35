import type { MaybePromise } from "../core/maybe-promise.ts";
import type { QuotaAccount } from "../limits/account-quotas.ts";
import type { RateLimits } from "../limits/rate-limits.ts";
import type { ChatMessageEvent } from "../live/eventsub-message.ts";
import { userLevelOf } from "./chat-command-input.ts";

/** Held to the per-chatter limit: everyone but the broadcaster and moderators (CONTRACT §6). */
const UNLIMITED_LEVELS: ReadonlySet<string> = new Set(["owner", "moderator"]);

type Chatter = Pick<ChatMessageEvent, "badges" | "chatterId" | "broadcasterId">;

/**
 * Whether a command read from chat may be answered, counting the answer: the chatter is under 3
 * answers per 30 s, and the channel's chat budget (the role's bot quota per minute) has room; both
 * are counted, or neither. Asked only once the command is enabled and its cooldown claimed (the
 * runner's `admit` gate), so lines that get no reply cost nothing. Chat never draws on the API key's
 * bot quota, so no chatter's flood can refuse the streamer's own bots.
 */
export function chatBudgetsAdmit(
  limits: Pick<RateLimits, "chatters">,
  account: QuotaAccount,
  chatter: Chatter,
): MaybePromise<boolean> {
  const held = !UNLIMITED_LEVELS.has(userLevelOf(chatter));
  return limits.chatters.admit(account, held ? chatter.chatterId : null);
}
