import { LRUCache } from "lru-cache";

/**
 * Per-channel command cooldowns: after a successful run, the command rests for the channel's
 * configured seconds. Bounded (one entry per channel and command that ran recently).
 */
export class CommandCooldowns {
  readonly #until = new LRUCache<string, number>({ max: 50_000 });

  /** Seconds left (rounded up), or 0 when the command may run. */
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
