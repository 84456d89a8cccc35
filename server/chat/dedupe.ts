import { LRUCache } from "lru-cache";

/** Twitch redelivers (at least once); a message id is remembered this long (reference §1.8). */
export const REMEMBER_MS = 10 * 60_000;

/**
 * Which notifications to act on: each message id once, and none stamped more than ten minutes ago
 * (a stale `!command` is not answered). Bounded by count as well as time.
 */
export class SeenMessages {
  readonly #seen: LRUCache<string, true>;

  constructor(
    private readonly now: () => number,
    max = 20_000,
  ) {
    this.#seen = new LRUCache({ max, ttl: REMEMBER_MS, ttlAutopurge: false });
  }

  /** True the first time a fresh message id is offered; false for repeats and stale messages. */
  admit(messageId: string, stampedAt: number): boolean {
    if (this.now() - stampedAt > REMEMBER_MS) return false;
    if (this.#seen.has(messageId)) return false;
    this.#seen.set(messageId, true);
    return true;
  }
}
