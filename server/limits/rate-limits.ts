import type { Clock } from "../core/clock.ts";
import type { Logger } from "../core/log.ts";
import type { MaybePromise } from "../core/maybe-promise.ts";
import { type AccountQuotaName, AccountQuotas, type QuotaAccount } from "./account-quotas.ts";
import { type ChatBudgetRefusal, ChatterLimits } from "./chatter-limits.ts";
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
  /**
   * One answer to `chatterId` (null: not held per chatter) counted in both budgets (null), or in
   * neither, saying which was spent.
   */
  check(account: QuotaAccount, chatterId: string | null): MaybePromise<ChatBudgetRefusal | null>;
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
 * Every limiter of one server, made once per context (`ctx.limits`). In process by default
 * (createRateLimits); with `--redis-url`, the same limits in Redis, exact across every instance
 * sharing it (createSharedRateLimits in server/redis/limits/rate-limits.ts; DESIGN.md, "Scale").
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
}

/** The client address of a request, as every limiter of one server sees it. */
export function clientIpResolverFor(options: RateLimitOptions): ClientIpResolver {
  return new ClientIpResolver({
    trustProxy: options.trustProxy,
    log: options.log,
    testAddressHeader: options.testAddressHeader,
  });
}

/** This instance's own per-address limits (also the shared ones' stand-in while Redis is away). */
export function localIpQuotas(options: RateLimitOptions): IpQuotas {
  return new IpQuotas({ clock: options.clock, maxKeys: options.maxIpKeys });
}

/** The limits in this process alone (no `--redis-url`). */
export function createRateLimits(options: RateLimitOptions): RateLimits {
  const perIp = localIpQuotas(options);
  const accounts = new AccountQuotas(options.clock);
  return {
    accounts,
    chatters: new ChatterLimits(options.clock, accounts.log("chat")),
    perIp,
    failedAuth: perIp.failedAuth,
    clientIp: clientIpResolverFor(options),
    shared: false,
  };
}
