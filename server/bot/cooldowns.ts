import type { MaybePromise } from "../core/maybe-promise.ts";

/**
 * Per-channel command cooldowns: after a run, the command rests for the channel's configured
 * seconds. What is kept is when the last run began; the rest is counted against the cooldown as
 * configured now, so a cooldown lowered (or raised) in the panel applies at once to a rest already
 * under way. A run claims the cooldown when it is let through, in one step (checked and started at
 * once), so commands arriving together cannot all pass while the first one is still running. In
 * process (CommandCooldowns), or in Redis when several instances serve the same channels
 * (server/redis/cooldowns.ts): then a cooldown claimed on one holds on all.
 */
export interface Cooldowns {
  /**
   * Seconds left (rounded up) of a `seconds`-long cooldown, recording nothing; or 0, having recorded
   * that a run began at `now`. A command without a cooldown (`seconds` 0) records nothing.
   */
  claim(accountId: number, command: string, seconds: number, now: number): MaybePromise<number>;
  /**
   * Takes back the claim of a run that began at `now` and gave no answer through no fault of its own
   * (a store outage, an internal error): the command may run again at once. A later claim is kept.
   */
  release(accountId: number, command: string, seconds: number, now: number): MaybePromise<void>;
}

/** Whole seconds left of a rest of `seconds` from `began`, at `now`. */
export function secondsLeft(began: number, seconds: number, now: number): number {
  const ms = began + seconds * 1000 - now;
  return ms > 0 ? Math.ceil(ms / 1000) : 0;
}

/** Most cooldowns kept in process (one per channel and command that ran recently). */
export const MAX_COOLDOWN_ENTRIES = 50_000;

/**
 * In process; bounded. A Map in the order the runs began: past the bound the oldest run's entry goes,
 * the one whose rest is likeliest over. (An LRUCache of this size allocated arrays for all 50,000
 * entries when the server started, ~1.4 MB of an idle server's memory; this grows with use.)
 */
export class CommandCooldowns implements Cooldowns {
  readonly #began = new Map<string, number>();

  /** Checked and recorded in the same tick: nothing can run in between. */
  claim(accountId: number, command: string, seconds: number, now: number): number {
    if (seconds <= 0) return 0;
    const key = `${accountId}:${command}`;
    const began = this.#began.get(key);
    const left = began === undefined ? 0 : secondsLeft(began, seconds, now);
    if (left === 0) {
      // Deleted first, so the Map's order stays the order the runs began.
      this.#began.delete(key);
      this.#began.set(key, now);
      if (this.#began.size > MAX_COOLDOWN_ENTRIES)
        this.#began.delete(this.#began.keys().next().value as string);
    }
    return left;
  }

  release(accountId: number, command: string, seconds: number, now: number): void {
    if (seconds <= 0) return;
    const key = `${accountId}:${command}`;
    if (this.#began.get(key) === now) this.#began.delete(key);
  }

  clear(): void {
    this.#began.clear();
  }
}
