import { StoreUnavailableError } from "../../../db/store-unavailable.ts";
import type { IpLimitScope, IpQuotas } from "../../limits/ip-quotas.ts";
import {
  clientIpResolverFor,
  type Decided,
  type IpLimiter,
  localIpQuotas,
  type RateLimitOptions,
  type RateLimits,
} from "../../limits/rate-limits.ts";
import type { RedisStore } from "../client.ts";
import { RedisAccountQuotas } from "./account-quotas.ts";
import { RedisChatterLimits } from "./chatter-limits.ts";
import { RedisIpQuotas } from "./ip-quotas.ts";

/**
 * Per-address limits with Redis away: pages, assets and anonymous API calls fall back to this
 * instance's own counters (each instance then admits up to the limit: bounded, and the site stays
 * up); `/auth` — a security limit — fails closed with the 503 like the account quotas.
 */
class FailLocalIpLimiter implements IpLimiter {
  constructor(
    private readonly shared: RedisIpQuotas,
    private readonly local: IpQuotas,
  ) {}

  check(scope: IpLimitScope, ip: string): Decided {
    const decided = this.shared.check(scope, ip);
    if (scope === "auth") return decided;
    return decided.catch((error: unknown) => {
      if (error instanceof StoreUnavailableError) return this.local.check(scope, ip);
      throw error;
    });
  }
}

/**
 * The limits of server/limits/rate-limits.ts in Redis (`--redis-url`): exact across every instance
 * sharing it, each check one round trip; a check past the store's timeout is a 503.
 */
export function createSharedRateLimits(store: RedisStore, options: RateLimitOptions): RateLimits {
  const perIp = new RedisIpQuotas(store);
  const accounts = new RedisAccountQuotas(store);
  return {
    accounts,
    chatters: new RedisChatterLimits(store, accounts.log("chat")),
    perIp: new FailLocalIpLimiter(perIp, localIpQuotas(options)),
    failedAuth: perIp.failedAuth,
    clientIp: clientIpResolverFor(options),
    shared: true,
  };
}
