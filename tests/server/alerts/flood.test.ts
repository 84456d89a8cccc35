/** The flood limits of one channel's alerts (pure): repeat follows and thanks lines. */
import { describe, expect, test } from "bun:test";
import { AlertFloodGuard, FOLLOW_REPEAT_MS, THANKS_GAP_MS } from "../../../server/alerts/flood.ts";

describe("repeat follows", () => {
  test("the same follower within 12 hours is admitted once; after that, again", () => {
    const guard = new AlertFloodGuard();
    expect(guard.admitFollow("42", 0)).toBe(true);
    expect(guard.admitFollow("42", 1000)).toBe(false);
    expect(guard.admitFollow("42", FOLLOW_REPEAT_MS - 1)).toBe(false);
    expect(guard.admitFollow("43", 1000)).toBe(true);
    expect(guard.admitFollow("42", FOLLOW_REPEAT_MS)).toBe(true);
  });

  test("a follow without a user id, odd ids and a clock going back are admitted, never thrown on", () => {
    const guard = new AlertFloodGuard();
    expect(guard.admitFollow(null, 0)).toBe(true);
    expect(guard.admitFollow(null, 0)).toBe(true);
    expect(guard.admitFollow("", 0)).toBe(true);
    expect(guard.admitFollow("\u202e💣 ünï", 5000)).toBe(true);
    expect(guard.admitFollow("\u202e💣 ünï", 6000)).toBe(false);
    expect(guard.admitFollow("\u202e💣 ünï", 0)).toBe(true);
  });

  test("memory is bounded: a wave of a million ids keeps the newest only", () => {
    const guard = new AlertFloodGuard(100);
    for (let i = 0; i < 1_000_000; i++) guard.admitFollow(`bot${i}`, i);
    expect(guard.admitFollow("bot999999", 1_000_001)).toBe(false);
    expect(guard.admitFollow("bot0", 1_000_001)).toBe(true);
  });
});

describe("thanks lines", () => {
  test("at most one per type per 10 s; types are counted apart", () => {
    const guard = new AlertFloodGuard();
    expect(guard.admitThanks("cheer", 0)).toBe(true);
    expect(guard.admitThanks("cheer", THANKS_GAP_MS - 1)).toBe(false);
    expect(guard.admitThanks("raid", 1)).toBe(true);
    expect(guard.admitThanks("cheer", THANKS_GAP_MS)).toBe(true);
  });
});
