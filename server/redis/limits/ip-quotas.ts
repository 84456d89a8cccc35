import { ipLimitKey } from "../../core/ip-key.ts";
import type { LimitDecision } from "../../limits/decision.ts";
import type { IpLimitScope } from "../../limits/ip-quotas.ts";
import { IP_LIMITS } from "../../limits/tables.ts";
import type { RedisQuotaOptions } from "./account-quotas.ts";
import { RedisSlidingCounter } from "./sliding-counter.ts";

/** ../ip-quotas.ts's FailedAuthLimiter on a Redis counter: failures counted across every instance. */
export class RedisFailedAuthLimiter {
  readonly #counter: RedisSlidingCounter;

  constructor(counter: RedisSlidingCounter) {
    this.#counter = counter;
  }

  /** Counts one failed attempt (unless already refused) and says whether it is answered 401 or 429. */
  record(ip: string): Promise<LimitDecision> {
    return this.#counter.check(ipLimitKey(ip));
  }

  /** Whether the next failed attempt from this address would be refused; counts nothing. */
  async isBlocked(ip: string): Promise<boolean> {
    return !(await this.#counter.peek(ipLimitKey(ip))).allowed;
  }
}

/**
 * ../ip-quotas.ts's IpQuotas with the counters in Redis (`<prefix>rl:ip:<scope>:<address or /64>`):
 * the same scopes, limits and answers, asynchronous. No per-limit key bound: keys expire by themselves.
 */
export class RedisIpQuotas {
  readonly failedAuth: RedisFailedAuthLimiter;
  readonly #counters: Record<IpLimitScope, RedisSlidingCounter>;

  constructor(options: RedisQuotaOptions) {
    const counter = (name: string, spec: { limit: number; windowMs: number }) =>
      new RedisSlidingCounter({
        client: options.client,
        limit: spec.limit,
        windowMs: spec.windowMs,
        prefix: `${options.keyPrefix ?? "cuebot:"}rl:ip:${name}:`,
        timeoutMs: options.timeoutMs,
        clock: options.clock,
      });
    this.#counters = {
      anonymous: counter("anonymous", IP_LIMITS.anonymous),
      publicPages: counter("publicPages", IP_LIMITS.publicPages),
      auth: counter("auth", IP_LIMITS.auth),
    };
    this.failedAuth = new RedisFailedAuthLimiter(counter("failedAuth", IP_LIMITS.failedAuth));
  }

  check(scope: IpLimitScope, ip: string): Promise<LimitDecision> {
    return this.#counters[scope].check(ipLimitKey(ip));
  }
}
