import { LRUCache } from "lru-cache";
import { LUA_REDIS_TIME } from "../limits/redis/lua-now.ts";
import type { MaybePromise } from "../maybe-promise.ts";
import { RedisScript } from "../redis/script.ts";
import type { RedisStore } from "../redis/store.ts";
import { MAX_COOLDOWN_SECONDS } from "./catalog.ts";

/**
 * Per-channel command cooldowns: after a run, the command rests for the channel's configured
 * seconds. What is kept is when the last run began; the rest is counted against the cooldown as
 * configured now, so a cooldown lowered (or raised) in the panel applies at once to a rest already
 * under way. In process (CommandCooldowns), or in Redis when several instances serve the same
 * channels (RedisCooldowns): then a cooldown started on one holds on all.
 */
export interface Cooldowns {
  /** Seconds left (rounded up) of a `seconds`-long cooldown, or 0 when the command may run. */
  remainingSeconds(accountId: number, command: string, seconds: number, now: number): MaybePromise<number>;
  /** A run began at `now`; a command without a cooldown (`seconds` 0) records nothing. */
  start(accountId: number, command: string, seconds: number, now: number): MaybePromise<void>;
}

/** Whole seconds left of a rest of `seconds` from `began`, at `now`. */
export function secondsLeft(began: number, seconds: number, now: number): number {
  const ms = began + seconds * 1000 - now;
  return ms > 0 ? Math.ceil(ms / 1000) : 0;
}

/** In process; bounded (one entry per channel and command that ran recently). */
export class CommandCooldowns implements Cooldowns {
  readonly #began = new LRUCache<string, number>({ max: 50_000 });

  remainingSeconds(accountId: number, command: string, seconds: number, now: number): number {
    const began = this.#began.get(`${accountId}:${command}`);
    return began === undefined ? 0 : secondsLeft(began, seconds, now);
  }

  start(accountId: number, command: string, seconds: number, now: number): void {
    if (seconds > 0) this.#began.set(`${accountId}:${command}`, now);
  }

  clear(): void {
    this.#began.clear();
  }
}

/**
 * ARGV: ms since the run began, ms the key lives. Stores when the run began on Redis's clock, so
 * every instance counts the rest on one clock.
 */
const START_LUA = `${LUA_REDIS_TIME}
redis.call('SET', KEYS[1], now - tonumber(ARGV[1]), 'PX', ARGV[2])
return 1`;

/** ARGV: the cooldown's seconds now. Reply: ms of rest left (≤ 0 when none). */
const REMAINING_LUA = `${LUA_REDIS_TIME}
local began = tonumber(redis.call('GET', KEYS[1]))
if not began then return 0 end
return began + tonumber(ARGV[1]) * 1000 - now`;

const START = new RedisScript(START_LUA);
const REMAINING = new RedisScript(REMAINING_LUA);

/**
 * In Redis (`<prefix>cd:<account>:<command>`, holding when the last run began and living as long as
 * the longest cooldown could): a command with a cooldown costs one script per run and one more when
 * it answers; one without costs none. A store that does not answer rejects with StoreUnavailableError.
 */
export class RedisCooldowns implements Cooldowns {
  constructor(readonly store: RedisStore) {}

  async remainingSeconds(accountId: number, command: string, seconds: number): Promise<number> {
    if (seconds <= 0) return 0;
    const { client, timeoutMs } = this.store;
    const call = { keys: [this.#key(accountId, command)], args: [String(seconds)] };
    const ms = Number(await REMAINING.run(client, call, timeoutMs));
    return ms > 0 ? Math.ceil(ms / 1000) : 0;
  }

  /** Counted from `now` (when the run began), as in process: a slow command does not rest longer. */
  async start(accountId: number, command: string, seconds: number, now: number): Promise<void> {
    if (seconds <= 0) return;
    const elapsed = Math.max(0, Date.now() - now);
    const call = {
      keys: [this.#key(accountId, command)],
      args: [String(elapsed), String(MAX_COOLDOWN_SECONDS * 1000)],
    };
    await START.run(this.store.client, call, this.store.timeoutMs);
  }

  #key(accountId: number, command: string): string {
    return `${this.store.keyPrefix}cd:${accountId}:${command}`;
  }
}
