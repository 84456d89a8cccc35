import type { Clock } from "../core/clock.ts";
import {
  type AnonymousAddress,
  addressKey,
  type CallBudget,
  DEFAULT_MAX_QUEUE_MS,
  DEFAULT_PROVIDER_LIMIT,
  isProviderLimit,
  MINUTE_MS,
  ProviderBudget,
  waitForSlot,
} from "../game/budget.ts";
import type { ProviderEntry, SharedFetchTiming, SharedProviderEntries } from "../game/provider-cache.ts";
import { ProviderError, type ProviderFailureKind } from "../game/provider-error.ts";
import type { SharedGame } from "../game/service.ts";
import { answerWithin } from "./bounded.ts";
import type { RedisStore } from "./client.ts";
import { LUA_LOG } from "./limits/log-lua.ts";
import { LUA_NOW } from "./limits/lua-now.ts";
import { releaseLock, takeLock } from "./lock.ts";
import { integerReply, RedisScript } from "./script.ts";

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

export type SharedProviderOptions = RedisStore & SharedFetchTiming;

/**
 * The game provider's answers shared by every instance (scale-out.md §5): a second-level cache in
 * Redis behind each instance's own, and a lock so one instance fetches a missing key while the others
 * wait for its answer — one provider call per key cluster-wide, where the provider's small per-key
 * budget (30 a minute) makes it pay. When Redis does not answer, an instance fetches by itself.
 */
export class SharedProviderStore implements SharedProviderEntries {
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
 * The provider key's per-minute budget shared by every instance, decided in one Lua call on Redis's
 * clock: the limit the provider last stated to any instance (`game:limit`, else the default, capped by
 * this instance's configured cap), the pause it imposed (a 429), then exact sliding logs (log-lua.ts)
 * — every call's, and for a caller without an API key the anonymous one and its address's, sized by
 * the addresses that asked in the last minute (a sorted set of at most half a budget of them: the
 * same arithmetic as budgetShares and RecentAddresses in budget.ts) — admitting the call into all of
 * them or none. Reply: {0} when admitted, else {ms until a call would fit}.
 *
 * KEYS: pause, limit, every call's log; for an address also the anonymous log, its own, the recent set.
 * ARGV: window ms, member, address ("" = a key holder), now ms ("" = Redis TIME), cap ("" = none),
 * default limit.
 */
const BUDGET_LUA = `
${LUA_NOW}
${LUA_LOG}
local window = tonumber(ARGV[1])
local total = tonumber(redis.call('GET', KEYS[2]) or '') or tonumber(ARGV[6])
local cap = tonumber(ARGV[5])
if cap and cap < total then total = cap end
local wait = math.max(0, redis.call('PTTL', KEYS[1]))
local logs = {KEYS[3]}
local limits = {total}
if ARGV[3] ~= '' then
  local half = math.floor(total / 2)
  redis.call('ZREMRANGEBYSCORE', KEYS[6], '-inf', now - window)
  redis.call('ZADD', KEYS[6], now, ARGV[3])
  redis.call('ZREMRANGEBYRANK', KEYS[6], 0, -math.max(1, half) - 1)
  redis.call('PEXPIRE', KEYS[6], window)
  local active = redis.call('ZCARD', KEYS[6])
  logs = {KEYS[3], KEYS[4], KEYS[5]}
  limits = {total, half, math.ceil(half / active)}
end
for i = 1, #logs do
  local _, free = log_wait(logs[i], limits[i], window, now)
  if free > wait then wait = free end
end
if wait > 0 then return {wait} end
for i = 1, #logs do log_add(logs[i], ARGV[2], window, now) end
return {0}
`;

const BUDGET = new RedisScript(BUDGET_LUA);

/** How long the provider's stated limit is kept in Redis after the last answer that stated it. */
const LIMIT_KEEP_MS = 86_400_000;

/**
 * Same answers as ProviderBudget, for every instance at once: a call waits at most `maxQueueMs` for a
 * slot, then fails with a BudgetRefusal. Every instance sizes it by the limit the provider last stated
 * to any of them (kept in Redis), so one that has not had an answer yet counts as the others do. When
 * Redis does not answer, the instance counts against a budget of its own, as a single instance does.
 */
export class SharedProviderBudget implements CallBudget {
  readonly #configured: string;
  readonly #prefix: string;
  readonly #pauseKey: string;
  readonly #limitKey: string;
  readonly #instanceId = crypto.randomUUID();
  #sequence = 0;
  /** With Redis away, this instance keeps its own budget, as a single instance would. */
  readonly #local: ProviderBudget;

  constructor(
    private readonly store: RedisStore,
    perMinute: number | null,
    private readonly options: { maxQueueMs?: number; clock: Clock },
  ) {
    this.#configured = perMinute === null ? "" : String(perMinute);
    this.#local = new ProviderBudget(perMinute, options.clock, options.maxQueueMs);
    this.#prefix = `${store.keyPrefix}game:budget:`;
    this.#pauseKey = `${store.keyPrefix}game:paused`;
    this.#limitKey = `${store.keyPrefix}game:limit`;
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
    // "key" is the log's name from before the anonymous share: instances of both versions share it.
    const keys = [this.#pauseKey, this.#limitKey, `${this.#prefix}key`];
    if (address !== null) {
      keys.push(`${this.#prefix}anonymous`, `${this.#prefix}address:${address}`, `${this.#prefix}addresses`);
    }
    const member = `${this.#instanceId}:${++this.#sequence}`;
    const args = [
      String(MINUTE_MS),
      member,
      address ?? "",
      "",
      this.#configured,
      String(DEFAULT_PROVIDER_LIMIT),
    ];
    const reply = await BUDGET.run(this.store.client, { keys, args }, this.store.timeoutMs);
    return integerReply(reply, 1)[0]!;
  }

  pauseFor(ms: number): void {
    if (ms <= 0) return;
    // Also here: with Redis away this instance's own budget must respect the provider's pause too.
    this.#local.pauseFor(ms);
    this.#tell(this.store.client.set(this.#pauseKey, "1", { PX: Math.ceil(ms) }));
  }

  /** The provider's stated limit, for every instance (a provider answer's cost: one write). */
  learnLimit(perMinute: number): void {
    this.#local.learnLimit(perMinute);
    if (!isProviderLimit(perMinute)) return;
    this.#tell(this.store.client.set(this.#limitKey, String(perMinute), { PX: LIMIT_KEEP_MS }));
  }

  /** A write others read; with Redis away the local budget holds it meanwhile. */
  #tell(write: Promise<unknown>): void {
    answerWithin(write, this.store.timeoutMs).catch(() => {});
  }
}

/** The game service's shared parts (`--redis-url`), on one Redis store. */
export function sharedGameOn(store: RedisStore): SharedGame {
  return {
    budget: (perMinute, options) => new SharedProviderBudget(store, perMinute, options),
    entries: (timing) => new SharedProviderStore({ ...store, ...timing }),
  };
}
