import type { Clock } from "../clock.ts";
import { RedisSlidingLog } from "../limits/redis/sliding-log.ts";
import { answerWithin } from "../redis/bounded.ts";
import { releaseLock, takeLock } from "../redis/lock.ts";
import { RedisScript } from "../redis/script.ts";
import type { RedisStore } from "../redis/store.ts";
import {
  DEFAULT_MAX_QUEUE_MS,
  ProviderBudget,
  ProviderError,
  type ProviderFailureKind,
  waitForSlot,
} from "./client.ts";

/** What one provider route holds for one key: a value, or a "no such data" answer, and when. */
export interface ProviderEntry<T> {
  at: number;
  value?: T;
  missing?: ProviderError;
}

interface StoredEntry {
  at: number;
  value?: unknown;
  missing?: { kind: ProviderFailureKind; message: string; status: number | null; code: number | null };
}

/** The entry and how long it has left, in one round trip; nil when there is none. */
const READ = new RedisScript(`
local v = redis.call('GET', KEYS[1])
if not v then return false end
return {v, redis.call('PTTL', KEYS[1])}
`);

/** The "no such data" answers that are cached; provider trouble never is. */
const NOT_FOUND_KINDS: ReadonlySet<string> = new Set([
  "player_not_found",
  "no_region",
  "no_recent_matches",
  "no_rank",
]);

/** How often a waiting instance looks whether the fetching one has stored its answer. */
const POLL_MS = 20;
const MINUTE_MS = 60_000;

export interface SharedProviderOptions extends RedisStore {
  /** How long one provider call may take (the fetch lock outlives it a little). */
  providerTimeoutMs: number;
  /** How long a call may queue for the per-minute budget before it (also within the lock). */
  maxQueueMs: number;
  /** This instance's clock, on which stored entries' ages are placed. */
  now: () => number;
}

/**
 * The game provider's answers shared by every instance (scale-out.md §5): a second-level cache in
 * Redis behind each instance's own, and a lock so one instance fetches a missing key while the others
 * wait for its answer — one provider call per key cluster-wide, where the provider's small per-key
 * budget (30 a minute) makes it pay. When Redis does not answer, an instance fetches by itself.
 */
export class SharedProviderStore {
  readonly #options: SharedProviderOptions;
  readonly #lockMs: number;

  constructor(options: SharedProviderOptions) {
    this.#options = options;
    this.#lockMs = options.maxQueueMs + options.providerTimeoutMs + 1000;
  }

  /**
   * The stored entry if one is fresh enough for the caller (`fresh(entry)`), else the result of
   * `produce` — fetched here when this instance holds the key's lock, or the entry the holder stored
   * meanwhile. `produce`'s entry is stored for `keepMs`. The lock outlives a whole provider call
   * (queueing for the budget included), so while one instance fetches the others only wait.
   */
  async getOrProduce<T>(
    route: string,
    key: string,
    keepMs: number,
    fresh: (entry: ProviderEntry<T>) => boolean,
    produce: () => Promise<ProviderEntry<T>>,
  ): Promise<ProviderEntry<T>> {
    const dataKey = `${this.#options.keyPrefix}game:${route}:${key}`;
    const lockKey = `${dataKey}:lock`;
    const lockMs = this.#lockMs;
    const deadline = performance.now() + lockMs;
    let token: string | null = null;
    try {
      for (;;) {
        const stored = await this.#read<T>(dataKey, keepMs);
        if (stored && fresh(stored)) return stored;
        token = await takeLock(this.#options.client, lockKey, lockMs, this.#options.timeoutMs);
        if (token) break;
        // Another instance fetches: wait for its answer, or for the lock to come free (its call failed
        // or it died) and take it. After a whole lock's life without either, fetch here.
        if (performance.now() >= deadline) break;
        await Bun.sleep(POLL_MS);
      }
    } catch {
      // Redis away: fetch here, as a single instance would.
      token = null;
    }
    try {
      const entry = await produce();
      await this.#write(dataKey, entry, keepMs).catch(() => {});
      return entry;
    } finally {
      if (token) await releaseLock(this.#options.client, lockKey, token, this.#options.timeoutMs);
    }
  }

  /**
   * The stored entry, its age taken from Redis (how much of `keepMs` has run out) and placed on this
   * instance's clock: instances' clocks may disagree, Redis's expiry does not. Anything that is not
   * exactly a value or a known "no such data" answer is a miss.
   */
  async #read<T>(dataKey: string, keepMs: number): Promise<ProviderEntry<T> | null> {
    const reply = await READ.run(
      this.#options.client,
      { keys: [dataKey], args: [] },
      this.#options.timeoutMs,
    );
    if (!Array.isArray(reply) || typeof reply[0] !== "string" || typeof reply[1] !== "number") return null;
    const [text, ttlMs] = reply as [string, number];
    try {
      const stored = JSON.parse(text) as StoredEntry;
      const hasValue = stored.value !== undefined && stored.value !== null;
      const m = stored.missing;
      const validMissing =
        typeof m === "object" && m !== null && NOT_FOUND_KINDS.has(m.kind) && typeof m.message === "string";
      if (hasValue === validMissing || (m !== undefined && !validMissing)) return null;
      const at = this.#options.now() - Math.max(0, keepMs - Math.max(0, ttlMs));
      return {
        at,
        ...(hasValue ? { value: stored.value as T } : {}),
        ...(validMissing
          ? { missing: new ProviderError(m.kind, m.message, m.status ?? null, m.code ?? null) }
          : {}),
      };
    } catch {
      return null;
    }
  }

  async #write<T>(dataKey: string, entry: ProviderEntry<T>, keepMs: number): Promise<void> {
    const m = entry.missing;
    const stored: StoredEntry = {
      at: entry.at,
      ...(entry.value !== undefined ? { value: entry.value } : {}),
      ...(m
        ? { missing: { kind: m.kind, message: m.message, status: m.providerStatus, code: m.providerCode } }
        : {}),
    };
    await this.#call(this.#options.client.set(dataKey, JSON.stringify(stored), { PX: keepMs }));
  }

  #call<R>(operation: Promise<R>): Promise<R> {
    return answerWithin(operation, this.#options.timeoutMs);
  }
}

/**
 * The provider key's per-minute budget shared by every instance: one exact sliding log in Redis, and a
 * pause the provider imposed (a 429) seen by all. Same answers as ProviderBudget: a call waits at most
 * `maxQueueMs` for a slot, then fails `rate_limited`. When Redis does not answer, the instance counts
 * against a budget of its own, as a single instance does.
 */
export class SharedProviderBudget {
  readonly #log: RedisSlidingLog<string>;
  readonly #pauseKey: string;
  /** With Redis away, this instance keeps its own budget, as a single instance would. */
  readonly #local: ProviderBudget;

  constructor(
    private readonly store: RedisStore,
    private readonly perMinute: number,
    private readonly options: { maxQueueMs?: number; clock: Clock },
  ) {
    this.#local = new ProviderBudget(perMinute, options.clock, options.maxQueueMs);
    this.#log = new RedisSlidingLog<string>({
      client: store.client,
      windowMs: MINUTE_MS,
      prefix: `${store.keyPrefix}game:budget:`,
      timeoutMs: store.timeoutMs,
    });
    this.#pauseKey = `${store.keyPrefix}game:paused`;
  }

  acquire(): Promise<void> {
    return waitForSlot(
      async () => {
        try {
          const paused = await answerWithin(this.store.client.pTTL(this.#pauseKey), this.store.timeoutMs);
          if (paused > 0) return paused;
          const decision = await this.#log.check("key", this.perMinute);
          return decision.allowed ? 0 : decision.retryAfterSeconds * 1000;
        } catch {
          return this.#local.tryTake();
        }
      },
      this.options.maxQueueMs ?? DEFAULT_MAX_QUEUE_MS,
      this.perMinute,
    );
  }

  pauseFor(ms: number): void {
    if (ms <= 0) return;
    // Also here: with Redis away this instance's own budget must respect the provider's pause too.
    this.#local.pauseFor(ms);
    const set = this.store.client.set(this.#pauseKey, "1", { PX: Math.ceil(ms) });
    answerWithin(set, this.store.timeoutMs).catch(() => {});
  }
}
