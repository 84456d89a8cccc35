import type { Clock } from "../../../core/clock.ts";

/**
 * Helix's rate-limit buckets: one per (client id, user) as Twitch keeps them (reference/twitch.md §2.0,
 * moderation.md §4), so one streamer's calls never drain another's. Every bucket holds `limit` points
 * and refills when the clock reaches the window's end (a minute after the window began; the window
 * starts with the simulator, so with a ManualClock it stays as it is until the test advances the clock).
 * Tests turn it through `knobs.rateLimit`: `limit` is each bucket's size, and setting `remaining` leaves
 * that many points in every bucket until the next refill (buckets first used meanwhile included);
 * reading it gives what is left in the bucket charged last.
 */
export class HelixBuckets {
  limit: number;
  readonly #clock: Clock;
  readonly #left = new Map<string, number>();
  /** What a bucket first used in this window starts with (`limit` unless a test set `remaining`). */
  #start: number;
  #lastKey: string | null = null;
  #resetAt: number;

  constructor(clock: Clock, limit: number) {
    this.#clock = clock;
    this.limit = limit;
    this.#start = limit;
    this.#resetAt = clock.now() + 60_000;
  }

  get remaining(): number {
    return this.#lastKey === null ? this.#start : this.left(this.#lastKey);
  }

  set remaining(value: number) {
    this.#refill();
    this.#start = value;
    for (const key of this.#left.keys()) this.#left.set(key, value);
  }

  /** When the buckets are full again (ms since the epoch). */
  get resetAt(): number {
    this.#refill();
    return this.#resetAt;
  }

  /** What is left in one bucket. */
  left(key: string): number {
    this.#refill();
    return Math.max(0, this.#left.get(key) ?? this.#start);
  }

  /** Takes one point from the bucket; false (nothing taken) when it is empty. */
  take(key: string): boolean {
    const left = this.left(key);
    this.#lastKey = key;
    if (left <= 0) return false;
    this.#left.set(key, left - 1);
    return true;
  }

  /** Twitch refills continuously (§2.0); a whole-minute window is enough for clients that wait for Reset. */
  #refill(): void {
    const now = this.#clock.now();
    if (now < this.#resetAt) return;
    this.#left.clear();
    this.#start = this.limit;
    this.#resetAt = now + 60_000;
  }
}

/** A bucket's key: the client id and the token's user (an app token has a bucket of its own). */
export const bucketKey = (clientId: string, userId: string | null) => `${clientId}:${userId ?? "app"}`;
