import { describe, expect, test } from "bun:test";
import { ManualClock } from "../../../server/core/clock.ts";
import { SlidingLog } from "../../../server/limits/sliding-log.ts";
import { maxInAnySpan, seededRandom } from "../../helpers/prng.ts";

const W = 60_000;

function setup() {
  const clock = new ManualClock();
  return { clock, log: new SlidingLog<string>({ windowMs: W, clock }) };
}

/** Accepted requests in (t − W, t], the exact definition of the rolling window. */
function countInWindow(accepted: number[], t: number): number {
  return accepted.filter((time) => time > t - W && time <= t).length;
}

/** Gaps mixing bursts (0 ms), steady traffic and long pauses, in whole milliseconds. */
function nextGap(random: () => number): number {
  const r = random();
  if (r < 0.3) return 0;
  if (r < 0.85) return Math.floor(random() * 2_000);
  return Math.floor(random() * 45_000);
}

describe("sliding log", () => {
  test("exact over random schedules: no 60 s span holds more than the limit, and nothing is refused early", () => {
    let refusals = 0;
    for (let seed = 1; seed <= 25; seed++) {
      const random = seededRandom(seed);
      const { clock, log } = setup();
      const limit = 1 + Math.floor(random() * 40);
      const accepted: number[] = [];
      for (let i = 0; i < 2_000; i++) {
        clock.advance(nextGap(random));
        const now = clock.now();
        const before = countInWindow(accepted, now);
        const decision = log.check("k", limit);
        expect(decision.limit).toBe(limit);
        if (decision.allowed) {
          expect(before).toBeLessThan(limit);
          expect(decision.remaining).toBe(limit - before - 1);
          expect(decision.retryAfterSeconds).toBe(0);
          accepted.push(now);
        } else {
          // Refused only when the window really is full: the log is exact, not conservative.
          expect(before).toBe(limit);
          expect(decision.remaining).toBe(0);
          refusals++;
          const ra = decision.retryAfterSeconds;
          expect(ra).toBeGreaterThanOrEqual(1);
          // Retry-After is true: admitted at now + RA, not yet a second earlier.
          expect(countInWindow(accepted, now + ra * 1000)).toBeLessThan(limit);
          if (ra > 1) expect(countInWindow(accepted, now + (ra - 1) * 1000)).toBe(limit);
        }
      }
      expect(maxInAnySpan(accepted, W)).toBeLessThanOrEqual(limit);
    }
    expect(refusals).toBeGreaterThan(1_000); // the schedules really press against the limit
  });

  test("a limit that changes mid-window (role change, override) applies to the requests already logged", () => {
    for (let seed = 100; seed < 115; seed++) {
      const random = seededRandom(seed);
      const { clock, log } = setup();
      let limit = 10;
      const accepted: number[] = [];
      for (let i = 0; i < 2_000; i++) {
        if (random() < 0.01) limit = 1 + Math.floor(random() * 60);
        clock.advance(nextGap(random));
        const now = clock.now();
        const before = countInWindow(accepted, now);
        const decision = log.check("k", limit);
        expect(decision.allowed).toBe(before < limit);
        if (decision.allowed) {
          accepted.push(now);
          continue;
        }
        const ra = decision.retryAfterSeconds;
        expect(countInWindow(accepted, now + ra * 1000)).toBeLessThan(limit);
        if (ra > 1) expect(countInWindow(accepted, now + (ra - 1) * 1000)).toBeGreaterThanOrEqual(limit);
      }
    }
  });

  test("Retry-After holds when the clock really gets there", () => {
    const { clock, log } = setup();
    log.check("k", 3);
    clock.advance(10_500);
    log.check("k", 3);
    log.check("k", 3);
    clock.advance(1_000);
    const refused = log.check("k", 3);
    // The oldest (t=0) leaves at 60 s; now is 11.5 s → 48.5 s, rounded up to 49.
    expect(refused).toEqual({ allowed: false, limit: 3, remaining: 0, retryAfterSeconds: 49 });
    clock.advance(48_000);
    expect(log.check("k", 3).allowed).toBe(false);
    clock.advance(1_000);
    expect(log.check("k", 3)).toEqual({ allowed: true, limit: 3, remaining: 0, retryAfterSeconds: 0 });
  });

  test("refused requests do not consume quota", () => {
    const { clock, log } = setup();
    for (let i = 0; i < 3; i++) expect(log.check("k", 3).allowed).toBe(true);
    for (let i = 0; i < 59; i++) {
      clock.advance(1_000);
      expect(log.check("k", 3).allowed).toBe(false);
    }
    clock.advance(1_000);
    for (let i = 0; i < 3; i++) expect(log.check("k", 3).allowed).toBe(true);
    expect(log.check("k", 3).allowed).toBe(false);
  });

  test("raising the limit admits more at once; lowering it waits until enough old requests leave", () => {
    const { clock, log } = setup();
    for (let i = 0; i < 30; i++) {
      expect(log.check("acct", 30).allowed).toBe(true);
      clock.advance(1_000);
    }
    // Now t = 30 s, 30 requests at 0..29 s. Default (30) is full; Pro (60) has 30 left.
    expect(log.check("acct", 30).allowed).toBe(false);
    expect(log.check("acct", 60)).toMatchObject({ allowed: true, remaining: 29 });
    // Back down to 10 with 31 logged: the 22nd oldest (t = 21 s) must leave → at 81 s, 51 s from now.
    const lowered = log.check("acct", 10);
    expect(lowered).toMatchObject({ allowed: false, limit: 10, retryAfterSeconds: 51 });
    clock.advance(50_000);
    expect(log.check("acct", 10).allowed).toBe(false);
    clock.advance(1_000);
    expect(log.check("acct", 10)).toMatchObject({ allowed: true, remaining: 0 });
  });

  test("remaining counts down to zero", () => {
    const { log } = setup();
    expect([1, 2, 3, 4].map(() => log.check("k", 3).remaining)).toEqual([2, 1, 0, 0]);
  });

  test("keys are independent, peek records nothing, forget drops a key", () => {
    const { log } = setup();
    log.check("a", 1);
    expect(log.check("a", 1).allowed).toBe(false);
    expect(log.peek("b", 1).allowed).toBe(true);
    expect(log.check("b", 1).allowed).toBe(true);
    expect(log.keyCount).toBe(2);
    log.forget("a");
    expect(log.check("a", 1).allowed).toBe(true);
  });

  test("a large limit is served exactly with a log that grows and shrinks", () => {
    const { clock, log } = setup();
    for (let i = 0; i < 5_000; i++) expect(log.check("k", 5_000).allowed).toBe(true);
    expect(log.check("k", 5_000).allowed).toBe(false);
    clock.advance(W);
    expect(log.check("k", 5_000)).toMatchObject({ allowed: true, remaining: 4_999 });
  });

  test("a limit below 1 is a programming error", () => {
    const { log } = setup();
    expect(() => log.check("k", 0)).toThrow(RangeError);
  });

  test("bounded keys: the one used longest ago is forgotten first, never a key still in use", () => {
    const clock = new ManualClock();
    const log = new SlidingLog<string>({ windowMs: 30_000, clock, maxKeys: 3 });
    for (const key of ["active", "b", "c"]) log.check(key, 2);
    clock.advance(1_000);
    log.check("active", 2);
    // A new key needs room: "b" is forgotten (last recorded longest ago), not "active" (created first).
    log.check("d", 2);
    expect(log.keyCount).toBe(3);
    expect(log.check("active", 2).allowed).toBe(false);
    expect(log.check("b", 2)).toMatchObject({ allowed: true, remaining: 1 });
    // A flood of new keys keeps memory bounded, and the key in use keeps its count.
    for (let i = 0; i < 1_000; i++) {
      log.check(`flood_${i}`, 2);
      expect(log.check("active", 2).allowed).toBe(false);
    }
    expect(log.keyCount).toBe(3);
  });
});
