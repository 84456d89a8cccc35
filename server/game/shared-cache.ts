import type { Clock } from "../clock.ts";
import { LUA_NOW } from "../limits/redis/lua-now.ts";
import { answerWithin } from "../redis/bounded.ts";
import { releaseLock, takeLock } from "../redis/lock.ts";
import { integerReply, RedisScript } from "../redis/script.ts";
import type { RedisStore } from "../redis/store.ts";
import {
  type AnonymousAddress,
  addressKey,
  BudgetLimit,
  budgetShares,
  type CallBudget,
  DEFAULT_MAX_QUEUE_MS,
  MINUTE_MS,
  ProviderBudget,
  waitForSlot,
} from "./budget.ts";
import { ProviderError, type ProviderFailureKind } from "./client.ts";

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
 * The provider key's per-minute budget shared by every instance, decided in one Lua call: the pause
 * the provider imposed (a 429), then exact sliding logs in Redis — every call's, and for a caller
 * without an API key the anonymous one and its address's (budget.ts) — admitting the call into all of
 * them or none. Reply: {0} when admitted, else {ms until a call would fit}.
 *
 * KEYS: pause key, then the logs. ARGV: window ms, member, "" (unused), now ms ("" = Redis TIME),
 * then each log's limit.
 */
const BUDGET_LUA = `
${LUA_NOW}
local window = tonumber(ARGV[1])
local wait = redis.call('PTTL', KEYS[1])
if wait < 0 then wait = 0 end
for i = 2, #KEYS do
  local limit = tonumber(ARGV[3 + i])
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window)
  local count = redis.call('ZCARD', KEYS[i])
  if count >= limit then
    local free = window
    if limit > 0 then
      local entry = redis.call('ZRANGE', KEYS[i], count - limit, count - limit, 'WITHSCORES')
      free = tonumber(entry[2]) + window - now
    end
    if free > wait then wait = free end
  end
end
if wait > 0 then return {wait} end
for i = 2, #KEYS do
  redis.call('ZADD', KEYS[i], now, ARGV[2])
  redis.call('PEXPIRE', KEYS[i], window)
end
return {0}
`;

const BUDGET = new RedisScript(BUDGET_LUA);

/**
 * Same answers as ProviderBudget, for every instance at once: a call waits at most `maxQueueMs` for a
 * slot, then fails with a BudgetRefusal. The limit is the one this instance learnt from the provider's
 * answers (or the configured cap). When Redis does not answer, the instance counts against a budget of
 * its own, as a single instance does.
 */
export class SharedProviderBudget implements CallBudget {
  readonly #limit: BudgetLimit;
  readonly #prefix: string;
  readonly #pauseKey: string;
  readonly #instanceId = crypto.randomUUID();
  #sequence = 0;
  /** With Redis away, this instance keeps its own budget, as a single instance would. */
  readonly #local: ProviderBudget;

  constructor(
    private readonly store: RedisStore,
    perMinute: number | null,
    private readonly options: { maxQueueMs?: number; clock: Clock },
  ) {
    this.#limit = new BudgetLimit(perMinute);
    this.#local = new ProviderBudget(perMinute, options.clock, options.maxQueueMs);
    this.#prefix = `${store.keyPrefix}game:budget:`;
    this.#pauseKey = `${store.keyPrefix}game:paused`;
  }

  acquire(anonymous: AnonymousAddress = null): Promise<void> {
    const address = addressKey(anonymous);
    return waitForSlot(
      async () => {
        try {
          return await this.#take(address);
        } catch {
          return this.#local.tryTake(address);
        }
      },
      this.options.maxQueueMs ?? DEFAULT_MAX_QUEUE_MS,
      address,
    );
  }

  async #take(address: AnonymousAddress): Promise<number> {
    const shares = budgetShares(this.#limit.perMinute);
    // "key" is the log's name from before the anonymous share: instances of both versions share it.
    const keys = [this.#pauseKey, `${this.#prefix}key`];
    const limits = [String(shares.total)];
    if (address !== null) {
      keys.push(`${this.#prefix}anonymous`, `${this.#prefix}address:${address}`);
      limits.push(String(shares.anonymous), String(shares.perAddress));
    }
    const member = `${this.#instanceId}:${++this.#sequence}`;
    const reply = await BUDGET.run(
      this.store.client,
      { keys, args: [String(MINUTE_MS), member, "", "", ...limits] },
      this.store.timeoutMs,
    );
    return integerReply(reply, 1)[0]!;
  }

  pauseFor(ms: number): void {
    if (ms <= 0) return;
    // Also here: with Redis away this instance's own budget must respect the provider's pause too.
    this.#local.pauseFor(ms);
    const set = this.store.client.set(this.#pauseKey, "1", { PX: Math.ceil(ms) });
    answerWithin(set, this.store.timeoutMs).catch(() => {});
  }

  learnLimit(perMinute: number): void {
    this.#limit.learn(perMinute);
    this.#local.learnLimit(perMinute);
  }
}
