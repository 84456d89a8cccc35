import type { Clock } from "../core/clock.ts";
import { allowedDecision, type LimitDecision, refusedDecision } from "./decision.ts";

/**
 * Accepted-request timestamps of one key, oldest first, in a ring buffer that grows on demand up to
 * the key's limit (so a 1,000,000/min override costs memory only when it is really used).
 */
class TimestampRing {
  times = new Float64Array(8);
  head = 0;
  size = 0;

  /** The i-th oldest timestamp still held. */
  at(i: number): number {
    return this.times[(this.head + i) % this.times.length]!;
  }

  /** Drops timestamps that left the window (`t + windowMs <= now`). */
  dropBefore(cutoff: number): void {
    while (this.size > 0 && this.times[this.head]! <= cutoff) {
      this.head = (this.head + 1) % this.times.length;
      this.size--;
    }
    // A lowered limit or a quiet spell leaves a big, mostly empty buffer: give the memory back.
    if (this.times.length > 64 && this.size < this.times.length / 4) this.resize(Math.max(8, this.size * 2));
  }

  push(time: number, limit: number): void {
    if (this.size === this.times.length) this.resize(Math.max(this.size + 1, Math.min(this.size * 2, limit)));
    this.times[(this.head + this.size) % this.times.length] = time;
    this.size++;
  }

  private resize(capacity: number): void {
    const next = new Float64Array(capacity);
    for (let i = 0; i < this.size; i++) next[i] = this.at(i);
    this.times = next;
    this.head = 0;
  }
}

export interface SlidingLogOptions {
  windowMs: number;
  clock: Clock;
  /**
   * Most keys kept, for keys others can mint (chatters): past it the key used longest ago is
   * forgotten. Unbounded when omitted (account ids).
   */
  maxKeys?: number;
}

/** Which of two logs asked together (`checkWith`) was full: the one asked on, or the other. */
export type PairRefusal = "this" | "other";

/**
 * An exact rolling window: a request at `now` is admitted only if fewer than `limit` admitted
 * requests of the same key lie in (now − window, now]. So no window-long span ever holds more than
 * the limit, whatever the timing. Refused requests are not recorded, which keeps `Retry-After`
 * truthful. The limit is passed on every call because it follows the account's current role: a role
 * change or override applies at once to the requests already in the log.
 *
 * Memory is one ring per key that has requests in the window; callers key it by something attackers
 * cannot mint (account ids), or set `maxKeys`.
 */
export class SlidingLog<Key = string | number> {
  readonly #logs = new Map<Key, TimestampRing>();
  readonly #windowMs: number;
  readonly #clock: Clock;
  readonly #maxKeys: number;

  constructor(options: SlidingLogOptions) {
    this.#windowMs = options.windowMs;
    this.#clock = options.clock;
    this.#maxKeys = options.maxKeys ?? Number.POSITIVE_INFINITY;
  }

  /** Admits and records the request when the key is under `limit`; a refusal records nothing. */
  check(key: Key, limit: number): LimitDecision {
    return this.#decide(key, limit, true);
  }

  /** What `check` would answer now, without recording anything. */
  peek(key: Key, limit: number): LimitDecision {
    return this.#decide(key, limit, false);
  }

  /**
   * Admits and records the request under `key` here and under `otherKey` in `other` when both have
   * room (null), else records nothing in either and says which log is full, this one asked first
   * (both checked, then both recorded, in one tick).
   */
  checkWith<Other>(
    key: Key,
    limit: number,
    other: SlidingLog<Other>,
    otherKey: Other,
    otherLimit: number,
  ): PairRefusal | null {
    if (this.waitMs(key, limit) > 0) return "this";
    if (other.waitMs(otherKey, otherLimit) > 0) return "other";
    this.check(key, limit);
    other.check(otherKey, otherLimit);
    return null;
  }

  /**
   * Milliseconds until `check` would admit a request of the key (0: now; a whole window for a limit
   * of 0), recording nothing: for callers that admit a request into several logs or none.
   */
  waitMs(key: Key, limit: number): number {
    if (limit < 1) return this.#windowMs;
    const now = this.#clock.now();
    const ring = this.#use(key);
    if (!ring) return 0;
    ring.dropBefore(now - this.#windowMs);
    if (ring.size === 0) this.#logs.delete(key);
    return Math.max(0, this.#freesAt(ring, limit) - now);
  }

  /** When the key fits under `limit` again: once all but limit−1 of its logged requests have left. */
  #freesAt(ring: TimestampRing, limit: number): number {
    // That is the (count − limit)-th oldest; with an unchanged limit simply the oldest.
    return ring.size < limit ? 0 : ring.at(ring.size - limit) + this.#windowMs;
  }

  /**
   * The key's ring. With `maxKeys`, a key in use moves to the end of the map, so the keys forgotten
   * for room are the ones asked about longest ago (quiet ones), never a chatter still flooding.
   */
  #use(key: Key): TimestampRing | undefined {
    const ring = this.#logs.get(key);
    if (ring && this.#maxKeys !== Number.POSITIVE_INFINITY) {
      this.#logs.delete(key);
      this.#logs.set(key, ring);
    }
    return ring;
  }

  /** Forgets a key (an account was deleted). */
  forget(key: Key): void {
    this.#logs.delete(key);
  }

  /** Number of keys with requests still in their window (or not yet looked at since they left it). */
  get keyCount(): number {
    return this.#logs.size;
  }

  #decide(key: Key, limit: number, record: boolean): LimitDecision {
    if (!Number.isInteger(limit) || limit < 1) {
      throw new RangeError(`limit must be a positive integer: ${limit}`);
    }
    const now = this.#clock.now();
    const ring = this.#use(key);
    if (ring) {
      ring.dropBefore(now - this.#windowMs);
      if (ring.size === 0 && !record) this.#logs.delete(key);
    }
    const count = ring?.size ?? 0;
    if (count >= limit) {
      return refusedDecision(limit, this.#freesAt(ring!, limit) - now);
    }
    if (record) {
      if (ring) ring.push(now, limit);
      else {
        // A Map iterates in insertion order and #use moves a key to the end: the first key is the
        // one used longest ago.
        if (this.#logs.size >= this.#maxKeys) this.#logs.delete(this.#logs.keys().next().value as Key);
        const fresh = new TimestampRing();
        fresh.push(now, limit);
        this.#logs.set(key, fresh);
      }
    }
    return allowedDecision(limit, limit - count - 1);
  }
}
