import { LRUCache } from "lru-cache";
import type { MaybePromise } from "../maybe-promise.ts";
import { answerWithin } from "../redis/bounded.ts";
import type { RedisStore } from "../redis/store.ts";

/**
 * Per-channel command cooldowns: after a successful run, the command rests for the channel's
 * configured seconds. In process (CommandCooldowns), or in Redis when several instances serve the
 * same channels (RedisCooldowns): then a cooldown started on one holds on all.
 */
export interface Cooldowns {
  /** Seconds left (rounded up), or 0 when the command may run. */
  remainingSeconds(accountId: number, command: string, now: number): MaybePromise<number>;
  start(accountId: number, command: string, seconds: number, now: number): MaybePromise<void>;
}

/** In process; bounded (one entry per channel and command that ran recently). */
export class CommandCooldowns implements Cooldowns {
  readonly #until = new LRUCache<string, number>({ max: 50_000 });

  remainingSeconds(accountId: number, command: string, now: number): number {
    const until = this.#until.get(`${accountId}:${command}`);
    return until && until > now ? Math.ceil((until - now) / 1000) : 0;
  }

  start(accountId: number, command: string, seconds: number, now: number): void {
    if (seconds > 0) this.#until.set(`${accountId}:${command}`, now + seconds * 1000);
  }

  clear(): void {
    this.#until.clear();
  }
}

/**
 * In Redis (`<prefix>cd:<account>:<command>`, expiring with the cooldown): one PTTL per command run,
 * one SET when a cooldown starts. A store that does not answer rejects with StoreUnavailableError.
 */
export class RedisCooldowns implements Cooldowns {
  constructor(readonly store: RedisStore) {}

  async remainingSeconds(accountId: number, command: string): Promise<number> {
    const { client, timeoutMs } = this.store;
    const ms = await answerWithin(client.pTTL(this.#key(accountId, command)), timeoutMs);
    return ms > 0 ? Math.ceil(ms / 1000) : 0;
  }

  /** Counted from `now` (when the run began), as in process: a slow command does not rest longer. */
  async start(accountId: number, command: string, seconds: number, now: number): Promise<void> {
    const ms = seconds * 1000 - Math.max(0, Date.now() - now);
    if (seconds <= 0 || ms <= 0) return;
    const set = this.store.client.set(this.#key(accountId, command), "1", { PX: Math.ceil(ms) });
    await answerWithin(set, this.store.timeoutMs);
  }

  #key(accountId: number, command: string): string {
    return `${this.store.keyPrefix}cd:${accountId}:${command}`;
  }
}
