import type { Clock } from "../clock.ts";
import type { LimitDecision } from "./decision.ts";
import { SlidingLog } from "./sliding-log.ts";
import { CHATTER_LIMIT } from "./tables.ts";

/**
 * Chatters remembered per server. A chatter's log matters for 30 s; more distinct chatters than this
 * within 30 s (across every channel) forgets the earliest ones first, and memory stays bounded.
 */
export const DEFAULT_MAX_CHATTER_KEYS = 50_000;

/** The key of one chatter in one channel: the same Twitch user is limited per channel. */
export function chatterKey(accountId: number, chatterId: string): string {
  return `${accountId}:${chatterId}`;
}

/**
 * How often one chatter is answered in one channel (CONTRACT §6: at most 3 times per 30 s), an exact
 * sliding log per chatter, so one viewer's flood cannot speak for the channel.
 */
export class ChatterLimits {
  readonly #log: SlidingLog<string>;

  constructor(clock: Clock, maxKeys = DEFAULT_MAX_CHATTER_KEYS) {
    this.#log = new SlidingLog({ windowMs: CHATTER_LIMIT.windowMs, clock, maxKeys });
  }

  /** Admits and counts one answer to this chatter when under the limit; a refusal counts nothing. */
  check(accountId: number, chatterId: string): LimitDecision {
    return this.#log.check(chatterKey(accountId, chatterId), CHATTER_LIMIT.limit);
  }

  /** Chatters currently remembered (bounded by `maxKeys`). */
  get keyCount(): number {
    return this.#log.keyCount;
  }
}
