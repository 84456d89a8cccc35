import type { Clock } from "../clock.ts";
import { ipLimitKey } from "../limits/ip-key.ts";
import { ProviderError } from "./client.ts";

/**
 * The provider key's per-minute budget and how it is shared (CONTRACT §6): callers without an API key
 * together use at most half of it, one client address at most a quarter of that half, so anonymous
 * traffic never spends the calls key holders and native chat need, and one address never takes the
 * anonymous half from the others. The budget is what the provider says the key may use
 * (`x-ratelimit-limit`), capped by CUEBOT_GAME_API_BUDGET when that is set.
 */

export const MINUTE_MS = 60_000;
/** What a key may use before the provider's first answer says (its basic keys get 30, reference §1.2). */
export const DEFAULT_PROVIDER_LIMIT = 30;
/** One address may use at most 1/4 of the anonymous half (rounded up): four addresses to fill it. */
export const ADDRESSES_PER_ANONYMOUS_HALF = 4;
/** How long a provider call may queue for a free slot in the per-minute budget, by default. */
export const DEFAULT_MAX_QUEUE_MS = 2_000;

/**
 * Who a provider call is for: null for a key holder or native chat, else the client address of the
 * caller without an API key (grouped as the per-IP limits group them: IPv6 by /64).
 */
export type AnonymousAddress = string | null;

export interface BudgetShares {
  /** Calls a minute for everyone. */
  total: number;
  /** Calls a minute for all anonymous callers together. */
  anonymous: number;
  /** Calls a minute for one anonymous address. */
  perAddress: number;
}

export function budgetShares(perMinute: number): BudgetShares {
  const anonymous = Math.floor(perMinute / 2);
  return {
    total: perMinute,
    anonymous,
    perAddress: Math.min(anonymous, Math.ceil(anonymous / ADDRESSES_PER_ANONYMOUS_HALF)),
  };
}

/**
 * The budget in effect: what the provider said the key may use (`x-ratelimit-limit`, the default
 * until it answered), or the configured cap when that is lower.
 */
export class BudgetLimit {
  #learned: number | null = null;
  constructor(private readonly configured: number | null) {}

  learn(perMinute: number): void {
    if (Number.isInteger(perMinute) && perMinute > 0) this.#learned = perMinute;
  }

  get perMinute(): number {
    const provider = this.#learned ?? this.configured ?? DEFAULT_PROVIDER_LIMIT;
    return this.configured === null ? provider : Math.min(this.configured, provider);
  }
}

/**
 * Milliseconds until fewer than `limit` of `times` (send times, oldest first, all inside the window)
 * are left in it: 0 when there is room now; a whole window when the limit is 0.
 */
export function waitUnder(times: readonly number[], limit: number, now: number): number {
  if (times.length < limit) return 0;
  if (limit <= 0) return MINUTE_MS;
  return times[times.length - limit]! + MINUTE_MS - now;
}

/** An anonymous caller's address as the per-IP limits key it (IPv6 by /64), worked out per call. */
export function addressKey(anonymous: AnonymousAddress): AnonymousAddress {
  return anonymous === null ? null : ipLimitKey(anonymous);
}

/** A call the budget refused: how long until it would be admitted, and whether it was anonymous. */
export class BudgetRefusal extends ProviderError {
  constructor(
    message: string,
    retryAfterMs: number,
    readonly anonymous: boolean,
  ) {
    super("rate_limited", message, null, null, retryAfterMs);
  }
}

/** What the client needs of a budget: a slot per call, a pause and a limit when the provider says so. */
export interface CallBudget {
  acquire(anonymous?: AnonymousAddress): Promise<void>;
  pauseFor(ms: number): void;
  /** The provider's `x-ratelimit-limit` for our key. */
  learnLimit(perMinute: number): void;
}

/**
 * Queues a call for a budget slot: `take` takes one now (answering 0) or says how many ms until one
 * frees. Gives up with a BudgetRefusal when the wait would pass `maxQueueMs`.
 */
export async function waitForSlot(
  take: () => number | Promise<number>,
  maxQueueMs: number,
  anonymous: AnonymousAddress,
): Promise<void> {
  const deadline = performance.now() + maxQueueMs;
  for (;;) {
    const wait = await take();
    if (wait === 0) return;
    if (wait > deadline - performance.now()) {
      throw new BudgetRefusal(
        anonymous === null
          ? "our own per-minute budget of provider requests is used up"
          : "the share of provider requests for callers without an API key is used up",
        wait,
        anonymous !== null,
      );
    }
    await Bun.sleep(wait);
  }
}

/**
 * The budget in one process: sliding logs of send times (every call, and the anonymous ones with
 * their address), plus a pause the provider can impose through its headers. When the budget is spent
 * a call waits briefly for a slot; if none frees up soon it fails, and the service answers from its
 * stale cache instead. The anonymous log holds at most half a budget of entries, so addresses cost
 * no memory beyond it.
 */
export class ProviderBudget implements CallBudget {
  readonly #limit: BudgetLimit;
  readonly #sent: number[] = [];
  readonly #anonymousAt: number[] = [];
  readonly #anonymousFrom: string[] = [];
  #pausedUntil = 0;

  constructor(
    perMinute: number | null,
    private readonly clock: Clock,
    /** Longest time a call queues for a free slot (real time). */
    private readonly maxQueueMs = DEFAULT_MAX_QUEUE_MS,
  ) {
    this.#limit = new BudgetLimit(perMinute);
  }

  /** Takes one slot, waiting at most `maxQueueMs`; throws a BudgetRefusal when none frees up in time. */
  acquire(anonymous: AnonymousAddress = null): Promise<void> {
    const address = addressKey(anonymous);
    return waitForSlot(() => this.tryTake(address), this.maxQueueMs, address);
  }

  /** Takes a slot now (0), or says how many ms until one frees (nothing taken). */
  tryTake(anonymous: AnonymousAddress = null): number {
    const now = this.clock.now();
    this.#forget(now - MINUTE_MS);
    const shares = budgetShares(this.#limit.perMinute);
    let wait = Math.max(0, this.#pausedUntil - now, waitUnder(this.#sent, shares.total, now));
    if (anonymous !== null) {
      const fromAddress = this.#anonymousAt.filter((_, i) => this.#anonymousFrom[i] === anonymous);
      wait = Math.max(
        wait,
        waitUnder(this.#anonymousAt, shares.anonymous, now),
        waitUnder(fromAddress, shares.perAddress, now),
      );
    }
    if (wait > 0) return wait;
    this.#sent.push(now);
    if (anonymous !== null) {
      this.#anonymousAt.push(now);
      this.#anonymousFrom.push(anonymous);
    }
    return 0;
  }

  /** The provider said the key is out of requests: send nothing until its window resets. */
  pauseFor(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, this.clock.now() + ms);
  }

  learnLimit(perMinute: number): void {
    this.#limit.learn(perMinute);
  }

  get used(): number {
    this.#forget(this.clock.now() - MINUTE_MS);
    return this.#sent.length;
  }

  #forget(cutoff: number): void {
    while (this.#sent.length > 0 && this.#sent[0]! <= cutoff) this.#sent.shift();
    while (this.#anonymousAt.length > 0 && this.#anonymousAt[0]! <= cutoff) {
      this.#anonymousAt.shift();
      this.#anonymousFrom.shift();
    }
  }
}
