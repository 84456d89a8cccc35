import { describe, expect, test } from "bun:test";
import { ManualClock } from "../../../server/core/clock.ts";
import { ApiError } from "../../../server/core/errors.ts";
import { createLogger } from "../../../server/core/log.ts";
import { enforceLimit, failedAuthentication, rateLimitHeaders } from "../../../server/http/quota.ts";
import { AccountQuotas, type QuotaAccount } from "../../../server/limits/account-quotas.ts";
import { createRateLimits } from "../../../server/limits/rate-limits.ts";

const account = (over: Partial<QuotaAccount> = {}): QuotaAccount => ({
  id: 1,
  role: "Default",
  panelLimitOverride: null,
  ...over,
});

function useUp(check: () => { allowed: boolean }): number {
  let admitted = 0;
  while (check().allowed) admitted++;
  return admitted;
}

describe("account quotas", () => {
  test("bot, heavy and panel quotas follow the role table and are counted separately", () => {
    const quotas = new AccountQuotas(new ManualClock());
    const vip = account({ role: "VIP" });
    expect(useUp(() => quotas.checkHeavy(vip))).toBe(20);
    expect(useUp(() => quotas.checkBot(vip))).toBe(90);
    expect(useUp(() => quotas.checkPanel(vip))).toBe(900);
  });

  test("accounts do not share quotas", () => {
    const quotas = new AccountQuotas(new ManualClock());
    expect(useUp(() => quotas.checkBot(account({ id: 1 })))).toBe(30);
    expect(quotas.checkBot(account({ id: 2 })).allowed).toBe(true);
  });

  test("a role change applies to the requests already counted", () => {
    const quotas = new AccountQuotas(new ManualClock());
    const acct = account();
    expect(useUp(() => quotas.checkBot(acct))).toBe(30);
    acct.role = "Pro";
    expect(quotas.checkBot(acct)).toMatchObject({ allowed: true, limit: 60, remaining: 29 });
    acct.role = "Default";
    expect(quotas.checkBot(acct)).toMatchObject({ allowed: false, limit: 30 });
  });

  test("the panel override replaces max(500, bot × 10), and applies mid-window", () => {
    const quotas = new AccountQuotas(new ManualClock());
    const partner = account({ role: "Partner" });
    expect(quotas.checkPanel(partner)).toMatchObject({ limit: 1200, remaining: 1199 });
    partner.panelLimitOverride = 2;
    expect(quotas.checkPanel(partner)).toMatchObject({ allowed: true, limit: 2, remaining: 0 });
    expect(quotas.checkPanel(partner).allowed).toBe(false);
    partner.panelLimitOverride = null;
    expect(quotas.checkPanel(partner)).toMatchObject({ allowed: true, limit: 1200, remaining: 1197 });
  });

  test("the quota frees a minute after the oldest request", () => {
    const clock = new ManualClock();
    const quotas = new AccountQuotas(clock);
    const acct = account();
    for (let i = 0; i < 5; i++) {
      quotas.checkHeavy(acct);
      clock.advance(2_000);
    }
    const refused = quotas.checkHeavy(acct);
    expect(refused).toMatchObject({ allowed: false, retryAfterSeconds: 50 });
    clock.advance(50_000);
    expect(quotas.checkHeavy(acct).allowed).toBe(true);
  });
});

describe("decisions as HTTP", () => {
  test("an admitted decision sets Limit and Remaining", () => {
    const set = { headers: {} as Record<string, string | number> };
    enforceLimit(set, { allowed: true, limit: 30, remaining: 12, retryAfterSeconds: 0 }, "bot");
    expect(set.headers).toEqual({ "x-ratelimit-limit": "30", "x-ratelimit-remaining": "12" });
  });

  test("a refused decision throws 429 rate_limited with Retry-After and Remaining 0", () => {
    const set = { headers: {} as Record<string, string | number> };
    const refused = { allowed: false, limit: 30, remaining: 0, retryAfterSeconds: 7 };
    let thrown: unknown;
    try {
      enforceLimit(set, refused, "bot");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    const error = thrown as ApiError;
    expect(error.status).toBe(429);
    expect(error.code).toBe("rate_limited");
    expect(error.message).toContain("7 seconds");
    expect(error.headers).toEqual({
      "x-ratelimit-limit": "30",
      "x-ratelimit-remaining": "0",
      "retry-after": "7",
    });
    expect(rateLimitHeaders(refused)).toEqual(error.headers);
  });

  test("failed authentications: 401 with the failed-auth limit's headers, 429 once past 60 per minute", async () => {
    const log = createLogger({ level: "error", format: "json", write: () => {} });
    const limits = createRateLimits({ clock: new ManualClock(), log, trustProxy: false });
    const request = () => new Request("http://localhost/api/x");
    const wrongKey = new ApiError(401, "invalid_api_key", "That API key is not valid.");
    for (let i = 0; i < 60; i++) {
      const error = await failedAuthentication(limits, request(), wrongKey);
      expect(error.status).toBe(401);
      expect(error.code).toBe("invalid_api_key");
      expect(error.headers["x-ratelimit-limit"]).toBe("60");
      expect(error.headers["x-ratelimit-remaining"]).toBe(String(59 - i));
    }
    expect(limits.failedAuth.isBlocked("unknown")).toBe(true);
    const blocked = await failedAuthentication(limits, request(), wrongKey);
    expect(blocked.status).toBe(429);
    expect(blocked.headers["retry-after"]).toBeDefined();
    expect(limits.failedAuth.isBlocked("203.0.113.1")).toBe(false);
  });
});
