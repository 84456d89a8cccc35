import type { Clock } from "../core/clock.ts";
import type { CommandRefusal } from "../vocabulary.ts";
import { accountLimit, type QuotaAccount } from "./account-quotas.ts";
import { type PairRefusal, SlidingLog } from "./sliding-log.ts";
import { CHATTER_LIMIT } from "./tables.ts";

/**
 * Chatters remembered per server. A chatter's log matters for 30 s; more distinct chatters than this
 * within 30 s (across every channel) forgets the ones heard from longest ago, and memory stays bounded.
 */
export const DEFAULT_MAX_CHATTER_KEYS = 50_000;

/** The key of one chatter in one channel: the same Twitch user is limited per channel. */
export function chatterKey(accountId: number, chatterId: string): string {
  return `${accountId}:${chatterId}`;
}

/** Which of native chat's budgets refused an answer: the chatter's 3 per 30 s, or the channel's. */
export type ChatBudgetRefusal = Extract<CommandRefusal, "viewer_limit" | "chat_budget">;

/** The budget a pair check (the chatter's log asked first, then the channel's) found spent. */
export function budgetRefusal(refusal: PairRefusal | null): ChatBudgetRefusal | null {
  return refusal === null ? null : refusal === "this" ? "viewer_limit" : "chat_budget";
}

/**
 * Native chat's answers (CONTRACT §6): each chatter is answered at most 3 times per 30 s in a channel
 * (an exact sliding log per chatter, so one viewer's flood cannot speak for the channel), and the
 * channel's chat budget (`channel`: AccountQuotas' chat log) has room. An answer is counted in both or,
 * refused, in neither.
 */
export class ChatterLimits {
  readonly #log: SlidingLog<string>;
  readonly #channel: SlidingLog<number>;

  constructor(clock: Clock, channel: SlidingLog<number>, maxKeys = DEFAULT_MAX_CHATTER_KEYS) {
    this.#log = new SlidingLog({ windowMs: CHATTER_LIMIT.windowMs, clock, maxKeys });
    this.#channel = channel;
  }

  /**
   * Admits and counts one answer to `chatterId` (null: a chatter not held to the per-chatter limit,
   * counted in the channel's budget only) when both have room; a refusal counts nothing and says
   * which budget was spent.
   */
  check(account: QuotaAccount, chatterId: string | null): ChatBudgetRefusal | null {
    const channelLimit = accountLimit("chat", account);
    if (chatterId === null)
      return this.#channel.check(account.id, channelLimit).allowed ? null : "chat_budget";
    const key = chatterKey(account.id, chatterId);
    return budgetRefusal(
      this.#log.checkWith(key, CHATTER_LIMIT.limit, this.#channel, account.id, channelLimit),
    );
  }

  /** Chatters currently remembered (bounded by `maxKeys`). */
  get keyCount(): number {
    return this.#log.keyCount;
  }
}
