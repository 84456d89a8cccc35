import { LRUCache } from "lru-cache";
import { SingleFlight } from "../cache/single-flight.ts";
import type { Clock } from "../core/clock.ts";
import type { MaybePromise } from "../core/maybe-promise.ts";
import { type AnonymousAddress, addressKey, BudgetRefusal } from "./budget.ts";
import { ProviderError } from "./provider-error.ts";

/**
 * One provider route's cache behind the game service (server/game/service.ts): fresh per caller's
 * TTL, identical concurrent misses share one call, and a failed call falls back to a value up to
 * its keep time old, marked stale.
 */

/** Own attempts of a caller whose joined call was refused for another caller's address. */
const JOINED_RETRIES = 3;

export interface Served<T> {
  value: T;
  /** True when the provider failed and an older cached value was used. */
  stale: boolean;
}

/** What one provider route holds for one key: a value, or a "no such data" answer, and when. */
export interface ProviderEntry<T> {
  at: number;
  value?: T;
  /** A "this player has no such data" answer, cached so a typo repeated in chat costs one call. */
  missing?: ProviderError;
}

/**
 * Provider answers shared by several instances (in Redis: server/redis/game-cache.ts), one fetch per
 * key among them all.
 */
export interface SharedProviderEntries {
  /**
   * The stored entry if one is `fresh` enough for the caller, else `produce`'s — fetched here, or the
   * one another instance fetched meanwhile — stored for `keepMs`.
   */
  getOrProduce<T>(
    route: string,
    key: string,
    keepMs: number,
    fresh: (entry: ProviderEntry<T>) => boolean,
    produce: () => Promise<ProviderEntry<T>>,
  ): Promise<ProviderEntry<T>>;
}

/** How long a shared fetch may take, for how long others wait for it (SharedGame.entries). */
export interface SharedFetchTiming {
  /** How long one provider call may take (the fetch lock outlives it a little). */
  providerTimeoutMs: number;
  /** How long a call may queue for the per-minute budget before it (also within the lock). */
  maxQueueMs: number;
  /** This instance's clock, on which stored entries' ages are placed. */
  now: () => number;
}

/** Several instances: the route's answers and fetches shared with the others. */
interface SharedRoute {
  store: SharedProviderEntries;
  route: string;
}

/**
 * One cached provider route: fresh per caller's TTL, single-flight on misses, stale on failure. With
 * a shared store, a miss here asks the other instances' answers first and joins their fetch.
 */
export class ProviderCache<T extends object> {
  readonly #entries: LRUCache<string, ProviderEntry<T>>;
  readonly #flights = new SingleFlight<string, ProviderEntry<T>>();

  constructor(
    max: number,
    private readonly keepMs: number,
    private readonly clock: Clock,
    private readonly shared: SharedRoute | null = null,
  ) {
    // ttlResolution 0: lru-cache would otherwise reuse a "now" for 1 ms, wrong under a test clock.
    this.#entries = new LRUCache<string, ProviderEntry<T>>({
      max,
      ttl: keepMs,
      ttlResolution: 0,
      perf: { now: () => clock.now() },
    });
  }

  /**
   * A fresh entry answers at once (no promise: this is the path of every cached chat command); a miss,
   * or an entry past the caller's TTL, fetches (single-flight) and falls back to a stale value when
   * the provider fails.
   */
  get(
    key: string,
    freshMs: number,
    missingFreshMs: number,
    fetch: () => Promise<T>,
    anonymous: AnonymousAddress,
  ): MaybePromise<Served<T>> {
    const hit = this.#entries.get(key);
    if (hit !== undefined && this.#isFresh(hit, freshMs, missingFreshMs)) return unwrap(hit, false);
    return this.#load(key, hit, freshMs, missingFreshMs, fetch, anonymous);
  }

  #isFresh(entry: ProviderEntry<T>, freshMs: number, missingFreshMs: number): boolean {
    return this.clock.now() - entry.at < (entry.missing ? Math.min(freshMs, missingFreshMs) : freshMs);
  }

  async #load(
    key: string,
    hit: ProviderEntry<T> | undefined,
    freshMs: number,
    missingFreshMs: number,
    fetch: () => Promise<T>,
    anonymous: AnonymousAddress,
  ): Promise<Served<T>> {
    const isFresh = (entry: ProviderEntry<T>) => this.#isFresh(entry, freshMs, missingFreshMs);
    const produce = async (): Promise<ProviderEntry<T>> => {
      try {
        return { at: this.clock.now(), value: await fetch() };
      } catch (error) {
        if (!(error instanceof ProviderError && error.isNotFound)) throw error;
        return { at: this.clock.now(), missing: error };
      }
    };
    const flight = () =>
      this.#flights.run(key, async () => {
        const shared = this.shared;
        const fresh = shared
          ? await shared.store.getOrProduce(shared.route, key, this.keepMs, isFresh, produce)
          : await produce();
        this.#entries.set(key, fresh, { ttl: this.keepMs });
        return fresh;
      });
    // A caller who joined someone else's call that the budget refused for that caller's address (its
    // share, or the anonymous half) is not refused with it: it makes its own attempt, a few at most.
    const mine = addressKey(anonymous);
    const attempt = (retries: number): Promise<ProviderEntry<T>> =>
      flight().catch((error: unknown) => {
        const othersRefusal = error instanceof BudgetRefusal && error.anonymous && error.address !== mine;
        if (othersRefusal && retries > 0) return attempt(retries - 1);
        throw error;
      });
    let entry: ProviderEntry<T>;
    try {
      entry = await attempt(JOINED_RETRIES);
    } catch (error) {
      if (hit?.value !== undefined && this.clock.now() - hit.at <= this.keepMs) return unwrap(hit, true);
      throw error;
    }
    return unwrap(entry, false);
  }
}

function unwrap<T>(entry: ProviderEntry<T>, stale: boolean): Served<T> {
  if (entry.missing) throw entry.missing;
  return { value: entry.value as T, stale };
}
