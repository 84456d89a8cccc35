import { StoreUnavailableError } from "../../db/store-unavailable.ts";
import type { Clock } from "../core/clock.ts";
import type { Logger } from "../core/log.ts";
import type { MaybePromise } from "../core/maybe-promise.ts";
import type { RedisStore } from "../redis/client.ts";
import { RedisAccountQuotas } from "../redis/limits/account-quotas.ts";
import { RedisChatterLimits } from "../redis/limits/chatter-limits.ts";
import { RedisIpQuotas } from "../redis/limits/ip-quotas.ts";
import { type AccountQuotaName, AccountQuotas, type QuotaAccount } from "./account-quotas.ts";
import { ChatterLimits } from "./chatter-limits.ts";
import { ClientIpResolver } from "./client-ip.ts";
import type { LimitDecision } from "./decision.ts";
import { type IpLimitScope, IpQuotas } from "./ip-quotas.ts";

/** A limiter's answer: at once in process, after one round trip from Redis. */
export type Decided = MaybePromise<LimitDecision>;

/** Bot, heavy and panel quotas per account (AccountQuotas, or RedisAccountQuotas shared by instances). */
export interface AccountLimiter {
  checkBot(account: QuotaAccount): Decided;
  checkHeavy(account: QuotaAccount): Decided;
  checkPanel(account: QuotaAccount): Decided;
  check(quota: AccountQuotaName, account: QuotaAccount): Decided;
  /** Drops an account's logs (the account was deleted). */
  forget(accountId: number): MaybePromise<void>;
}

/** Native chat's answers per chatter and channel (ChatterLimits, or RedisChatterLimits). */
export interface ChatterLimiter {
  /** One answer to `chatterId` (null: not held per chatter) counted in both budgets, or in neither. */
  admit(account: QuotaAccount, chatterId: string | null): MaybePromise<boolean>;
}

/** Anonymous, public-page and /auth limits per address (IpQuotas, or RedisIpQuotas). */
export interface IpLimiter {
  check(scope: IpLimitScope, ip: string): Decided;
}

/** Failed authentications per address: counts one and says whether it is answered 401 or 429. */
export interface FailedAuthCounter {
  record(ip: string): Decided;
  /** Whether the next failed attempt from this address would be refused; counts nothing. */
  isBlocked(ip: string): MaybePromise<boolean>;
}

/**
 * Every limiter of one server, made once per context (`ctx.limits`). In process by default; with a
 * Redis client, the same limits in Redis, exact across every instance sharing it (DESIGN.md, "Scale").
 * Features never know which: they pass the decision on (andThen), and only the shared ones wait.
 */
export interface RateLimits {
  accounts: AccountLimiter;
  /** Native chat: how often each chatter is answered, with the channel's chat budget (kept in `accounts`). */
  chatters: ChatterLimiter;
  perIp: IpLimiter;
  /** Failed authentications per address; the auth layer records each failure here. */
  failedAuth: FailedAuthCounter;
  /** The client address of a request (socket or trusted proxy), as the per-IP limits saw it. */
  clientIp: ClientIpResolver;
  /** True when the limits live in Redis: their checks answer with promises. */
  shared: boolean;
}

export interface RateLimitOptions {
  clock: Clock;
  log: Logger;
  trustProxy: boolean | readonly string[];
  /** Tests only; see ClientIpOptions.testAddressHeader. */
  testAddressHeader?: string;
  /** Addresses remembered per per-IP limit (in process). */
  maxIpKeys?: number;
  /** Redis: the limits are shared by every instance using it (a check past its timeout is a 503). */
  shared?: RedisStore;
}

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

export function createRateLimits(options: RateLimitOptions): RateLimits {
  const clientIp = new ClientIpResolver({
    trustProxy: options.trustProxy,
    log: options.log,
    testAddressHeader: options.testAddressHeader,
  });
  if (options.shared) {
    const store = options.shared;
    const perIp = new RedisIpQuotas(store);
    const local = new IpQuotas({ clock: options.clock, maxKeys: options.maxIpKeys });
    const accounts = new RedisAccountQuotas(store);
    return {
      accounts,
      chatters: new RedisChatterLimits(store, accounts.log("chat")),
      perIp: new FailLocalIpLimiter(perIp, local),
      failedAuth: perIp.failedAuth,
      clientIp,
      shared: true,
    };
  }
  const perIp = new IpQuotas({ clock: options.clock, maxKeys: options.maxIpKeys });
  const accounts = new AccountQuotas(options.clock);
  return {
    accounts,
    chatters: new ChatterLimits(options.clock, accounts.log("chat")),
    perIp,
    failedAuth: perIp.failedAuth,
    clientIp,
    shared: false,
  };
}
