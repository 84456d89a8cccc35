import { type ModerationBook, OFFENCE_WINDOW_MS, WARNING_GAP_MS } from "../moderation/book.ts";
import { answerWithin } from "./bounded.ts";
import type { RedisStore } from "./client.ts";

/**
 * Moderation's book in Redis (`<prefix>mod:off|permit|warn:<account>:<chatter>`), so an offence,
 * a permit or a warning counts on whichever instance holds chat next (after a lease handover too).
 * Each key lives as long as it matters; one command per question.
 */
export class RedisModerationBook implements ModerationBook {
  constructor(readonly store: RedisStore) {}

  async offend(accountId: number, chatterId: string): Promise<boolean> {
    // SET … GET: the previous offence's mark, if one is still within the hour, and this one set.
    const previous = await this.#within(
      this.store.client.set(this.#key("off", accountId, chatterId), "1", {
        PX: OFFENCE_WINDOW_MS,
        GET: true,
      }),
    );
    return previous !== null;
  }

  async permit(accountId: number, login: string, until: number, now: number): Promise<void> {
    const ms = Math.max(1, until - now);
    await this.#within(this.store.client.set(this.#key("permit", accountId, login), "1", { PX: ms }));
  }

  async permitted(accountId: number, login: string): Promise<boolean> {
    return (await this.#within(this.store.client.exists(this.#key("permit", accountId, login)))) > 0;
  }

  async mayWarn(accountId: number, chatterId: string): Promise<boolean> {
    const set = await this.#within(
      this.store.client.set(this.#key("warn", accountId, chatterId), "1", { PX: WARNING_GAP_MS, NX: true }),
    );
    return set !== null;
  }

  #within<T>(operation: Promise<T>): Promise<T> {
    return answerWithin(operation, this.store.timeoutMs);
  }

  #key(kind: string, accountId: number, who: string): string {
    return `${this.store.keyPrefix}mod:${kind}:${accountId}:${who}`;
  }
}
