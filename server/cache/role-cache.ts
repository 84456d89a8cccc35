import { LRUCache } from "lru-cache";
import type { Role } from "../../db/schema-enums.ts";
import type { Clock } from "../core/clock.ts";
import type { MaybePromise } from "../core/maybe-promise.ts";
import { PANEL_CACHE_TTL_MS, type PanelResource, ROLE_QUOTAS } from "../limits/tables.ts";
import { FollowedAtCache, type FollowFacts } from "./followed-at-cache.ts";

interface Entry<V> {
  value: V;
  expiresAt: number;
}

export interface RoleCacheOptions {
  clock: Clock;
  /** Most entries kept; the least recently used go first. */
  max: number;
  /** Lifetime of an entry written for an account of this role. */
  ttlMs: (role: Role) => number;
  /** Answer with the expired value when the loader fails (the upstream is down), rather than failing. */
  staleOnError?: boolean;
}

/**
 * An LRU of upstream answers whose lifetime depends on the account's role (service doc §8.1, §8.3).
 * Expiry follows the injected clock, not lru-cache's own timer, so tests control it exactly. Concurrent
 * misses for one key share a single load (single-flight): a chat raid asking the same command at once
 * costs one upstream request.
 */
export class RoleCache<V> {
  readonly #entries: LRUCache<string, Entry<V>>;
  readonly #inFlight = new Map<string, Promise<V>>();
  readonly #options: RoleCacheOptions;
  /** Bumped by clear(): a load that started before a flush must not write its (older) answer back. */
  #generation = 0;

  constructor(options: RoleCacheOptions) {
    this.#options = options;
    this.#entries = new LRUCache({ max: options.max });
  }

  /** The cached value while it is fresh. */
  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    return entry && entry.expiresAt > this.#options.clock.now() ? entry.value : undefined;
  }

  set(key: string, role: Role, value: V): void {
    this.#entries.set(key, { value, expiresAt: this.#options.clock.now() + this.#options.ttlMs(role) });
  }

  /**
   * The fresh cached value at once, or the result of `load` (shared by every caller asking meanwhile).
   */
  getOrLoad(key: string, role: Role, load: () => Promise<V>): MaybePromise<V> {
    const entry = this.#entries.get(key);
    if (entry && entry.expiresAt > this.#options.clock.now()) return entry.value;
    const pending = this.#inFlight.get(key);
    if (pending) return pending;
    const promise = this.#load(key, role, load, entry, this.#generation);
    this.#inFlight.set(key, promise);
    const settle = () => {
      if (this.#inFlight.get(key) === promise) this.#inFlight.delete(key);
    };
    promise.then(settle, settle);
    return promise;
  }

  delete(key: string): void {
    this.#entries.delete(key);
    this.#inFlight.delete(key);
  }

  /** Forgets everything, including loads in progress (their answers are not stored). */
  clear(): void {
    this.#generation++;
    this.#entries.clear();
    this.#inFlight.clear();
  }

  get size(): number {
    return this.#entries.size;
  }

  get max(): number {
    return this.#entries.max;
  }

  async #load(
    key: string,
    role: Role,
    load: () => Promise<V>,
    stale: Entry<V> | undefined,
    generation: number,
  ): Promise<V> {
    try {
      const value = await load();
      if (generation === this.#generation) this.set(key, role, value);
      return value;
    } catch (error) {
      if (this.#options.staleOnError && stale && generation === this.#generation) return stale.value;
      throw error;
    }
  }
}

export interface RoleCachesOptions {
  clock: Clock;
  /** Entries per named cache. */
  maxEntries?: number;
}

/**
 * Every role-aware cache of one server (`ctx.caches`), created on first use by name so features
 * need no wiring, and flushed together when the CLI changes a role, key or account.
 */
export class RoleCaches {
  readonly #caches = new Map<string, RoleCache<unknown>>();
  readonly #clock: Clock;
  readonly #maxEntries: number;
  #followedAt: FollowedAtCache | undefined;

  constructor({ clock, maxEntries = 10_000 }: RoleCachesOptions) {
    this.#clock = clock;
    this.#maxEntries = maxEntries;
  }

  /** A chat command's cache: lifetime = the role's command cache TTL (§8.1). One name per command. */
  command<V>(command: string, options: { staleOnError?: boolean } = {}): RoleCache<V> {
    return this.#named(`command:${command}`, (role) => ROLE_QUOTAS[role].commandCacheTtlMs, options);
  }

  /** A panel resource's cache: lifetime from §8.3 for the account's role. */
  panel<V>(resource: PanelResource, options: { staleOnError?: boolean } = {}): RoleCache<V> {
    return this.#named(`panel:${resource}`, (role) => PANEL_CACHE_TTL_MS[resource][role], options);
  }

  /** Followage's follow dates, under the command TTL of the channel owner's role. */
  get followedAt(): FollowedAtCache {
    this.#followedAt ??= new FollowedAtCache(this.command<FollowFacts>("followage"), this.#clock);
    return this.#followedAt;
  }

  flush(): void {
    for (const cache of this.#caches.values()) cache.clear();
  }

  #named<V>(name: string, ttlMs: (role: Role) => number, options: { staleOnError?: boolean }): RoleCache<V> {
    let cache = this.#caches.get(name);
    if (!cache) {
      cache = new RoleCache<unknown>({
        clock: this.#clock,
        max: this.#maxEntries,
        ttlMs,
        staleOnError: options.staleOnError,
      });
      this.#caches.set(name, cache);
    }
    // Each name belongs to one feature, which always stores one type under it.
    return cache as RoleCache<V>;
  }
}
