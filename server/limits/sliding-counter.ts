import type { Clock } from "../core/clock.ts";
import { AddressTable } from "./address-table.ts";
import { allowedDecision, type LimitDecision, refusedDecision } from "./decision.ts";

/** Counts of one key: the clock-aligned window starting at `start`, and the one before it. */
interface CounterWindows {
  start: number;
  previous: number;
  current: number;
}

export interface SlidingCounterOptions {
  limit: number;
  windowMs: number;
  clock: Clock;
  /** Most keys remembered; the least recently seen are forgotten first. */
  maxKeys: number;
}

/**
 * The sliding-window counter (Cloudflare's): the previous window's count weighted by how much of it
 * still overlaps the rolling window, plus the current count. Two integers per key instead of a log,
 * so it suits per-IP limits where keys are many and anyone can mint new ones. An estimate: it admitted
 * 102–110 % of the limit under random overload (platform notes §0.4), but a burst timed at a window's
 * end followed by steady requests can pass up to about 2× within one 60 s span. Keys are client addresses (IPv6 by
 * /64, see AddressTable) in a table of fixed size: a flood of distinct addresses reuses the slots of
 * the quietest ones (resetting their counts) and allocates nothing.
 */
export class SlidingCounter {
  readonly limit: number;
  readonly #windowMs: number;
  readonly #clock: Clock;
  readonly #keys: AddressTable;
  readonly #start: Float64Array;
  readonly #previous: Float64Array;
  readonly #current: Float64Array;
  /** One record reused for the arithmetic of every call. */
  readonly #windows: CounterWindows = { start: 0, previous: 0, current: 0 };

  constructor(options: SlidingCounterOptions) {
    if (!Number.isInteger(options.limit) || options.limit < 1) {
      throw new RangeError(`limit must be a positive integer: ${options.limit}`);
    }
    this.limit = options.limit;
    this.#windowMs = options.windowMs;
    this.#clock = options.clock;
    this.#keys = new AddressTable(options.maxKeys);
    this.#start = new Float64Array(options.maxKeys);
    this.#previous = new Float64Array(options.maxKeys);
    this.#current = new Float64Array(options.maxKeys);
  }

  /** Admits and counts the request when the key is under the limit; a refusal counts nothing. */
  check(key: string): LimitDecision {
    const now = this.#clock.now();
    const windows = this.#windows;
    let slot = this.#keys.find(key);
    if (slot === -1) {
      slot = this.#keys.insert(key);
      windows.start = this.#windowStart(now);
      windows.previous = 0;
      windows.current = 0;
    } else {
      windows.start = this.#start[slot]!;
      windows.previous = this.#previous[slot]!;
      windows.current = this.#current[slot]!;
      this.#roll(windows, now);
    }
    const decision = this.#decide(windows, now);
    if (decision.allowed) windows.current++;
    this.#start[slot] = windows.start;
    this.#previous[slot] = windows.previous;
    this.#current[slot] = windows.current;
    return decision;
  }

  /** What `check` would answer now, without counting anything or creating an entry. */
  peek(key: string): LimitDecision {
    const now = this.#clock.now();
    const slot = this.#keys.peek(key);
    const windows =
      slot === -1
        ? { start: this.#windowStart(now), previous: 0, current: 0 }
        : { start: this.#start[slot]!, previous: this.#previous[slot]!, current: this.#current[slot]! };
    this.#roll(windows, now);
    return this.#decide(windows, now);
  }

  get keyCount(): number {
    return this.#keys.size;
  }

  get maxKeys(): number {
    return this.#keys.capacity;
  }

  clear(): void {
    this.#keys.clear();
  }

  #windowStart(now: number): number {
    return Math.floor(now / this.#windowMs) * this.#windowMs;
  }

  /** Moves the key's windows forward to the one containing `now`. */
  #roll(windows: CounterWindows, now: number): void {
    const start = this.#windowStart(now);
    if (windows.start >= start) return; // same window (or the clock stepped back: keep the counts)
    windows.previous = windows.start === start - this.#windowMs ? windows.current : 0;
    windows.current = 0;
    windows.start = start;
  }

  /**
   * Admit when previous·(W − elapsed)/W + current + 1 ≤ limit. Everything is multiplied by W so the
   * comparison is exact in integers.
   */
  #decide({ start, previous, current }: CounterWindows, now: number): LimitDecision {
    const w = this.#windowMs;
    const elapsed = now - start;
    const budget = this.limit * w - previous * (w - elapsed) - (current + 1) * w;
    if (budget >= 0) return allowedDecision(this.limit, Math.floor(budget / w));
    return refusedDecision(this.limit, this.#admittedAt(start, previous, current) - now);
  }

  /** The first instant the estimate leaves room for one more request, if nothing else arrives. */
  #admittedAt(start: number, previous: number, current: number): number {
    const w = this.#windowMs;
    const room = this.limit - current - 1;
    // Still in this window: the previous window's weight fades until previous·(W − e) ≤ room·W.
    if (room >= 0 && previous > 0) {
      const elapsed = Math.ceil((w * (previous - room)) / previous);
      if (elapsed < w) return start + elapsed;
    }
    // In the next window this window's count becomes the fading one: current·(W − e) ≤ (limit − 1)·W.
    const nextElapsed =
      current === 0 ? 0 : Math.max(0, Math.ceil((w * (current - this.limit + 1)) / current));
    if (nextElapsed < w) return start + w + nextElapsed;
    return start + 2 * w;
  }
}
