/** Twitch redelivers (at least once); a message id is remembered this long (reference §1.8). */
export const REMEMBER_MS = 10 * 60_000;

/**
 * Which notifications to act on: each message id once, and none stamped more than ten minutes ago
 * (a stale `!command` is not answered). Bounded by count as well as time.
 *
 * Two generations of ids: the current one takes new ids, the previous one is still asked, and both
 * shift once the current one is REMEMBER_MS old (or holds half of `max`). So an id is remembered for
 * REMEMBER_MS at least (unless `max` ids arrive sooner), and memory follows the traffic: a socket of a
 * quiet channel holds two empty sets, not a table sized for a busy one (an `lru-cache` of 20 000
 * entries allocated its arrays up front: ~0.8 MB for each of 1,000 channels, issue 26).
 */
export class SeenMessages {
  #current = new Set<string>();
  #previous = new Set<string>();
  #since: number;

  constructor(
    private readonly now: () => number,
    private readonly max = 20_000,
  ) {
    this.#since = now();
  }

  /** True the first time a fresh message id is offered; false for repeats and stale messages. */
  admit(messageId: string, stampedAt: number): boolean {
    const now = this.now();
    if (now - stampedAt > REMEMBER_MS) return false;
    if (this.#current.has(messageId) || this.#previous.has(messageId)) return false;
    if (now - this.#since >= REMEMBER_MS || this.#current.size >= this.max / 2) {
      this.#previous = this.#current;
      this.#current = new Set();
      this.#since = now;
    }
    this.#current.add(messageId);
    return true;
  }
}
