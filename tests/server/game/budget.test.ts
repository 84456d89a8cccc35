import { describe, expect, test } from "bun:test";
import { ManualClock } from "../../../server/core/clock.ts";
import { BudgetLimit, budgetShares, ProviderBudget, RecentAddresses } from "../../../server/game/budget.ts";

describe("budget shares", () => {
  test("anonymous callers get half (rounded down), each asking address an equal part (rounded up)", () => {
    expect(budgetShares(30)).toEqual({ total: 30, anonymous: 15, perAddress: 15 });
    expect(budgetShares(90, 4)).toEqual({ total: 90, anonymous: 45, perAddress: 12 });
    expect(budgetShares(8, 3)).toEqual({ total: 8, anonymous: 4, perAddress: 2 });
    expect(budgetShares(8, 100)).toEqual({ total: 8, anonymous: 4, perAddress: 1 });
    expect(budgetShares(1)).toEqual({ total: 1, anonymous: 0, perAddress: 0 });
  });

  test("the limit is the provider's, capped by the configured one", () => {
    const following = new BudgetLimit(null);
    expect(following.perMinute).toBe(30);
    following.learn(90);
    expect(following.perMinute).toBe(90);
    following.learn(Number.NaN);
    expect(following.perMinute).toBe(90);
    const capped = new BudgetLimit(20);
    expect(capped.perMinute).toBe(20);
    capped.learn(90);
    expect(capped.perMinute).toBe(20);
    capped.learn(10);
    expect(capped.perMinute).toBe(10);
  });
});

describe("the anonymous share", () => {
  test("one IPv6 /64 is one address; a waiting address gets the next free call; key holders keep half", async () => {
    const clock = new ManualClock();
    const budget = new ProviderBudget(8, clock, 0);
    // Alone, an address may use the anonymous half (4 of 8); its /64 is one address.
    for (let i = 1; i <= 4; i++) {
      await budget.acquire(`2001:db8::${i}`);
      clock.advance(10_000);
    }
    await expect(budget.acquire("198.51.100.2")).rejects.toMatchObject({
      kind: "rate_limited",
      anonymous: true,
      address: "198.51.100.2",
      retryAfterMs: 20_000,
    });
    clock.advance(20_000);
    // One call left the window: two addresses ask, 2 each, and the /64 still has 3 (until 20 s on).
    await expect(budget.acquire("2001:db8::9")).rejects.toMatchObject({ retryAfterMs: 20_000 });
    await budget.acquire("198.51.100.2");
    for (let i = 0; i < 4; i++) await budget.acquire();
    await expect(budget.acquire()).rejects.toMatchObject({ anonymous: false, address: null });
    clock.advance(60_000);
    await budget.acquire("2001:db8::2");
  });

  test("the addresses told apart are at most the anonymous half: memory stays bounded", () => {
    const recent = new RecentAddresses();
    for (let i = 0; i < 1_000; i++)
      expect(recent.note(`198.51.100.${i}`, 1_000 + i, 4)).toBe(Math.min(i + 1, 4));
    expect(recent.note("203.0.113.1", 70_000, 4)).toBe(1);
  });
});
