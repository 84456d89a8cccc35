import type { Clock } from "../core/clock.ts";
import type { LimitDecision } from "./decision.ts";
import { SlidingCounter } from "./sliding-counter.ts";
import { IP_LIMITS } from "./tables.ts";

/** The per-IP limits applied by route before any credential is looked at (CONTRACT §7). */
export type IpLimitScope = "anonymous" | "publicPages" | "auth";

/**
 * How many addresses each per-IP limit remembers. A streamer's server sees far fewer distinct
 * addresses per window than this (chat bots come from a handful); beyond it the least recently seen
 * are forgotten. The table is allocated whole at start (about 1.5 MB per limit) and never grows.
 */
export const DEFAULT_MAX_IP_KEYS = 32_768;

export interface IpQuotaOptions {
  clock: Clock;
  maxKeys?: number;
}

/**
 * Failed authentications per IP (a wrong key, a bad or expired session, a wrong overlay token). Past
 * the limit, every further failed attempt from that address is refused with 429 — a correct credential
 * from the same address still works, since only failures are counted and checked.
 */
export class FailedAuthLimiter {
  readonly #counter: SlidingCounter;

  constructor(counter: SlidingCounter) {
    this.#counter = counter;
  }

  /** Counts one failed attempt (unless already refused) and says whether it is answered 401 or 429. */
  record(ip: string): LimitDecision {
    return this.#counter.check(ip);
  }

  /** Whether the next failed attempt from this address would be refused; counts nothing. */
  isBlocked(ip: string): boolean {
    return !this.#counter.peek(ip).allowed;
  }
}

export class IpQuotas {
  readonly failedAuth: FailedAuthLimiter;
  readonly #counters: Record<IpLimitScope, SlidingCounter>;

  constructor({ clock, maxKeys = DEFAULT_MAX_IP_KEYS }: IpQuotaOptions) {
    const counter = (spec: { limit: number; windowMs: number }) =>
      new SlidingCounter({ limit: spec.limit, windowMs: spec.windowMs, clock, maxKeys });
    this.#counters = {
      anonymous: counter(IP_LIMITS.anonymous),
      publicPages: counter(IP_LIMITS.publicPages),
      auth: counter(IP_LIMITS.auth),
    };
    this.failedAuth = new FailedAuthLimiter(counter(IP_LIMITS.failedAuth));
  }

  check(scope: IpLimitScope, ip: string): LimitDecision {
    return this.#counters[scope].check(ip);
  }

  /** Addresses currently remembered by one limit (bounded by `maxKeys`). */
  keyCount(scope: IpLimitScope): number {
    return this.#counters[scope].keyCount;
  }
}
