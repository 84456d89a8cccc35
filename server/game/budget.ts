import type { Clock } from "../core/clock.ts";
import { ipLimitKey } from "../core/ip-key.ts";
import { SlidingLog } from "../limits/sliding-log.ts";
import { ProviderError } from "./provider-error.ts";

/**
 * The provider key's per-minute budget and how it is shared (CONTRACT §6): callers without an API key
 * together use at most half of it, so anonymous traffic never spends the calls key holders and native
 * chat need; and one client address at most an equal part of that half among the addresses that asked
 * in the last minute (admitted or refused), so an address that asks is soon served even while another
 * keeps asking. The budget is what the provider says the key may use (`x-ratelimit-limit`), capped by
 * CUEBOT_GAME_API_BUDGET when that is set.
 */

export const MINUTE_MS = 60_000;
/** What a key may use before the provider's first answer says (its basic keys get 30, reference §1.2). */
export const DEFAULT_PROVIDER_LIMIT = 30;
/** Per-address logs kept in process (an address evicted past it can only start its share afresh). */
const MAX_ADDRESS_LOGS = 4_096;
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

/**
 * The shares of a budget of `perMinute` while `activeAddresses` addresses (the caller's included) ask
 * without a key: half for them all (rounded down), an equal part of it for each (rounded up). The
 * shared budget's Lua (server/redis/game-cache.ts) computes the same.
 */
export function budgetShares(perMinute: number, activeAddresses = 1): BudgetShares {
  const anonymous = Math.floor(perMinute / 2);
  return { total: perMinute, anonymous, perAddress: Math.ceil(anonymous / Math.max(1, activeAddresses)) };
}

/** How many addresses are worth telling apart: past the anonymous half, each one's share is 1 anyway. */
export function addressesCounted(perMinute: number): number {
  return Math.max(1, budgetShares(perMinute).anonymous);
}

/** Whether a provider's `x-ratelimit-limit` is a usable limit. */
export function isProviderLimit(perMinute: number): boolean {
  return Number.isInteger(perMinute) && perMinute > 0;
}

/**
 * The budget in effect: what the provider said the key may use (`x-ratelimit-limit`, the default
 * until it answered), or the configured cap when that is lower.
 */
export class BudgetLimit {
  #learned: number | null = null;
  constructor(private readonly configured: number | null) {}

  learn(perMinute: number): void {
    if (isProviderLimit(perMinute)) this.#learned = perMinute;
  }

  get perMinute(): number {
    const provider = this.#learned ?? this.configured ?? DEFAULT_PROVIDER_LIMIT;
    return this.configured === null ? provider : Math.min(this.configured, provider);
  }
}

/**
 * The addresses that asked without a key in the last minute, admitted or refused, most recent last;
 * at most `max` of them (the most recent), so memory stays within the anonymous half. O(1) a call.
 */
export class RecentAddresses {
  readonly #seen = new Map<string, number>();

  /** Notes that `address` asks at `now`; answers how many addresses asked in the window, it included. */
  note(address: string, now: number, max: number): number {
    this.#seen.delete(address);
    this.#seen.set(address, now);
    for (const [oldest, at] of this.#seen) {
      if (at > now - MINUTE_MS && this.#seen.size <= max) break;
      this.#seen.delete(oldest);
    }
    return this.#seen.size;
  }
}

/** An anonymous caller's address as the per-IP limits key it (IPv6 by /64), worked out per call. */
export function addressKey(anonymous: AnonymousAddress): AnonymousAddress {
  return anonymous === null ? null : ipLimitKey(anonymous);
}

/**
 * A call the budget refused: how long until it would be admitted, and for whom: the address of a
 * caller without an API key (grouped), or null for a key holder or native chat.
 */
export class BudgetRefusal extends ProviderError {
  constructor(
    message: string,
    retryAfterMs: number,
    readonly address: AnonymousAddress,
  ) {
    super("rate_limited", message, null, null, retryAfterMs);
  }

  get anonymous(): boolean {
    return this.address !== null;
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
        anonymous,
      );
    }
    await Bun.sleep(wait);
  }
}

/**
 * The budget in one process: exact sliding logs (../limits/sliding-log.ts) of every call, of the
 * anonymous ones, and of each address's, plus a pause the provider can impose through its headers. A
 * call is admitted into all of its logs or none. When the budget is spent a call waits briefly for a
 * slot; if none frees up soon it fails, and the service answers from its stale cache instead.
 */
export class ProviderBudget implements CallBudget {
  readonly #limit: BudgetLimit;
  /** Keys "all" and "anonymous". */
  readonly #calls: SlidingLog<string>;
  readonly #addresses: SlidingLog<string>;
  readonly #recent = new RecentAddresses();
  #pausedUntil = 0;

  constructor(
    perMinute: number | null,
    private readonly clock: Clock,
    /** Longest time a call queues for a free slot (real time). */
    private readonly maxQueueMs = DEFAULT_MAX_QUEUE_MS,
  ) {
    this.#limit = new BudgetLimit(perMinute);
    this.#calls = new SlidingLog({ windowMs: MINUTE_MS, clock });
    this.#addresses = new SlidingLog({ windowMs: MINUTE_MS, clock, maxKeys: MAX_ADDRESS_LOGS });
  }

  /** Takes one slot, waiting at most `maxQueueMs`; throws a BudgetRefusal when none frees up in time. */
  acquire(anonymous: AnonymousAddress = null): Promise<void> {
    const address = addressKey(anonymous);
    return waitForSlot(() => this.tryTake(address), this.maxQueueMs, address);
  }

  /** Takes a slot now (0), or says how many ms until one frees (nothing taken). */
  tryTake(address: AnonymousAddress = null): number {
    const now = this.clock.now();
    const perMinute = this.#limit.perMinute;
    const active = address === null ? 1 : this.#recent.note(address, now, addressesCounted(perMinute));
    const shares = budgetShares(perMinute, active);
    const logs: [SlidingLog<string>, string, number][] = [[this.#calls, "all", shares.total]];
    if (address !== null) {
      logs.push([this.#calls, "anonymous", shares.anonymous], [this.#addresses, address, shares.perAddress]);
    }
    const wait = Math.max(
      this.#pausedUntil - now,
      ...logs.map(([log, key, limit]) => log.waitMs(key, limit)),
    );
    if (wait > 0) return wait;
    for (const [log, key, limit] of logs) log.check(key, limit);
    return 0;
  }

  /** The provider said the key is out of requests: send nothing until its window resets. */
  pauseFor(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, this.clock.now() + ms);
  }

  learnLimit(perMinute: number): void {
    this.#limit.learn(perMinute);
  }

  /** Calls in the last minute (up to the limit). */
  get used(): number {
    const limit = this.#limit.perMinute;
    const now = this.#calls.peek("all", limit);
    return now.allowed ? limit - now.remaining - 1 : limit;
  }
}
