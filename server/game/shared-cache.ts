import { RedisSlidingLog } from "../limits/redis/sliding-log.ts";
import { answerWithin } from "../redis/bounded.ts";
import type { RedisClient } from "../redis/client.ts";
import { RedisScript } from "../redis/script.ts";
import { ProviderError, type ProviderFailureKind, waitForSlot } from "./client.ts";

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

const UNLOCK = new RedisScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`);

/** How often a waiting instance looks whether the fetching one has stored its answer. */
const POLL_MS = 20;
const MINUTE_MS = 60_000;

export interface SharedProviderOptions {
  client: RedisClient;
  keyPrefix: string;
  /** Per Redis call. */
  timeoutMs: number;
  /** How long one provider call may take (the fetch lock outlives it a little). */
  providerTimeoutMs: number;
}

/**
 * The game provider's answers shared by every instance (scale-out.md §5): a second-level cache in
 * Redis behind each instance's own, and a lock so one instance fetches a missing key while the others
 * wait for its answer — one provider call per key cluster-wide, where the provider's small per-key
 * budget (30 a minute) makes it pay. When Redis does not answer, an instance fetches by itself.
 */
export class SharedProviderStore {
  readonly #options: SharedProviderOptions;

  constructor(options: SharedProviderOptions) {
    this.#options = options;
  }

  /**
   * The stored entry if one is at least as new as `newerThan` allows (`fresh(entry)`), else the result
   * of `produce` — fetched here when this instance wins the key's lock, or taken from the instance that
   * won it once it stored it. `produce`'s entry is stored for `keepMs`.
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
    let token: string | null = null;
    try {
      const stored = await this.#read<T>(dataKey);
      if (stored && fresh(stored)) return stored;
      token = crypto.randomUUID();
      const lockMs = this.#options.providerTimeoutMs + 1000;
      const won = await this.#call(this.#options.client.set(lockKey, token, { NX: true, PX: lockMs }));
      if (won !== "OK") {
        token = null;
        const waited = await this.#awaitOther<T>(dataKey, lockKey, lockMs, fresh);
        if (waited) return waited;
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
      if (token) {
        const unlock = UNLOCK.run(
          this.#options.client,
          { keys: [lockKey], args: [token] },
          this.#options.timeoutMs,
        );
        await unlock.catch(() => {});
      }
    }
  }

  async #awaitOther<T>(
    dataKey: string,
    lockKey: string,
    lockMs: number,
    fresh: (entry: ProviderEntry<T>) => boolean,
  ): Promise<ProviderEntry<T> | null> {
    const deadline = performance.now() + lockMs;
    while (performance.now() < deadline) {
      await Bun.sleep(POLL_MS);
      const stored = await this.#read<T>(dataKey);
      if (stored && fresh(stored)) return stored;
      // The fetching instance gave up (its call failed, or it died): fetch here.
      if ((await this.#call(this.#options.client.exists(lockKey))) === 0) return null;
    }
    return null;
  }

  async #read<T>(dataKey: string): Promise<ProviderEntry<T> | null> {
    const text = await this.#call(this.#options.client.get(dataKey));
    if (typeof text !== "string") return null;
    try {
      const stored = JSON.parse(text) as StoredEntry;
      if (typeof stored.at !== "number") return null;
      const m = stored.missing;
      return {
        at: stored.at,
        ...(stored.value !== undefined ? { value: stored.value as T } : {}),
        ...(m ? { missing: new ProviderError(m.kind, m.message, m.status, m.code) } : {}),
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
 * `maxQueueMs` for a slot, then fails `rate_limited`. When Redis does not answer, the call goes ahead:
 * the provider's own limit still stands behind it.
 */
export class SharedProviderBudget {
  readonly #log: RedisSlidingLog<string>;
  readonly #pauseKey: string;

  constructor(
    private readonly client: RedisClient,
    private readonly perMinute: number,
    private readonly options: { keyPrefix: string; timeoutMs: number; maxQueueMs?: number },
  ) {
    this.#log = new RedisSlidingLog<string>({
      client,
      windowMs: MINUTE_MS,
      prefix: `${options.keyPrefix}game:budget:`,
      timeoutMs: options.timeoutMs,
    });
    this.#pauseKey = `${options.keyPrefix}game:paused`;
  }

  acquire(): Promise<void> {
    return waitForSlot(
      async () => {
        try {
          const paused = await answerWithin(this.client.pTTL(this.#pauseKey), this.options.timeoutMs);
          if (paused > 0) return paused;
          const decision = await this.#log.check("key", this.perMinute);
          return decision.allowed ? 0 : decision.retryAfterSeconds * 1000;
        } catch {
          return 0;
        }
      },
      this.options.maxQueueMs ?? 2_000,
      this.perMinute,
    );
  }

  pauseFor(ms: number): void {
    if (ms <= 0) return;
    const set = this.client.set(this.#pauseKey, "1", { PX: Math.ceil(ms) });
    answerWithin(set, this.options.timeoutMs).catch(() => {});
  }
}
