import { describe, expect, test } from "bun:test";
import { ManualClock } from "../../server/clock.ts";
import { BudgetLimit, budgetShares, ProviderBudget } from "../../server/game/budget.ts";

describe("budget shares", () => {
  test("anonymous callers get half (rounded down), one address a quarter of that (rounded up)", () => {
    expect(budgetShares(30)).toEqual({ total: 30, anonymous: 15, perAddress: 4 });
    expect(budgetShares(90)).toEqual({ total: 90, anonymous: 45, perAddress: 12 });
    expect(budgetShares(8)).toEqual({ total: 8, anonymous: 4, perAddress: 1 });
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
  test("one IPv6 /64 is one address; key holders still get the other half", async () => {
    const clock = new ManualClock();
    const budget = new ProviderBudget(8, clock, 0);
    await budget.acquire("2001:db8::1");
    await expect(budget.acquire("2001:db8::2")).rejects.toMatchObject({
      kind: "rate_limited",
      anonymous: true,
      retryAfterMs: 60_000,
    });
    for (let i = 2; i <= 4; i++) await budget.acquire(`198.51.100.${i}`);
    await expect(budget.acquire("198.51.100.9")).rejects.toMatchObject({ anonymous: true });
    for (let i = 0; i < 4; i++) await budget.acquire();
    await expect(budget.acquire()).rejects.toMatchObject({ anonymous: false });
    clock.advance(60_000);
    await budget.acquire("2001:db8::2");
  });
});
