import type { Clock } from "../../core/clock.ts";
import { allowedDecision, type LimitDecision, refusedDecision } from "../../limits/decision.ts";
import { integerReply, RedisScript, type ScriptClient } from "../script.ts";
import { LUA_NOW } from "./lua-now.ts";

/**
 * The sliding-window counter of ../sliding-counter.ts in one small hash per key (`s` window start,
 * `p` previous count, `c` current count), decided atomically by one Lua call on Redis's clock. The
 * arithmetic is the in-process one line by line, so the answers are the same numbers; a key lives
 * until its counts can no longer matter (the end of the window after its last admitted request).
 *
 * ARGV: limit, window ms, "1" to count an admitted request ("0" = peek), now ms ("" = Redis TIME).
 * Reply: {1, remaining} when admitted, {0, ms until a request would be admitted} when refused.
 */
export const SLIDING_COUNTER_LUA = `
${LUA_NOW}
local limit = tonumber(ARGV[1])
local w = tonumber(ARGV[2])
local start = math.floor(now / w) * w
local h = redis.call('HMGET', KEYS[1], 's', 'p', 'c')
local s = tonumber(h[1])
local p = tonumber(h[2]) or 0
local c = tonumber(h[3]) or 0
if not s then
  s = start; p = 0; c = 0
elseif s < start then
  if s == start - w then p = c else p = 0 end
  c = 0; s = start
end
local budget = limit * w - p * (w - (now - s)) - (c + 1) * w
if budget >= 0 then
  if ARGV[3] == '1' then
    redis.call('HSET', KEYS[1], 's', s, 'p', p, 'c', c + 1)
    redis.call('PEXPIRE', KEYS[1], s + 2 * w - now)
  end
  return {1, math.floor(budget / w)}
end
local room = limit - c - 1
if room >= 0 and p > 0 then
  local e = math.ceil((w * (p - room)) / p)
  if e < w then return {0, s + e - now} end
end
local ne = 0
if c > 0 then ne = math.max(0, math.ceil((w * (c - limit + 1)) / c)) end
if ne < w then return {0, s + w + ne - now} end
return {0, s + 2 * w - now}
`;

const SCRIPT = new RedisScript(SLIDING_COUNTER_LUA);

export interface RedisSlidingCounterOptions {
  client: ScriptClient;
  limit: number;
  windowMs: number;
  /** Prepended to every key, e.g. `cuebot:rl:ip:anonymous:`; one prefix per limit. */
  prefix: string;
  /** Longest wait for Redis's answer per check before StoreUnavailableError. */
  timeoutMs: number;
  /** Tests only: decide at this clock's time instead of Redis's `TIME`. */
  clock?: Clock;
}

/**
 * ../sliding-counter.ts's SlidingCounter with the counts in Redis: the same `check`/`peek` answers,
 * asynchronous. Keys expire by themselves, so there is no LRU bound to keep (Redis's maxmemory
 * policy is the operator's). A check that cannot reach Redis within `timeoutMs` rejects with
 * StoreUnavailableError.
 */
export class RedisSlidingCounter {
  readonly limit: number;
  readonly #options: RedisSlidingCounterOptions;

  constructor(options: RedisSlidingCounterOptions) {
    if (!Number.isInteger(options.limit) || options.limit < 1) {
      throw new RangeError(`limit must be a positive integer: ${options.limit}`);
    }
    this.limit = options.limit;
    this.#options = options;
  }

  /** Admits and counts the request when the key is under the limit; a refusal counts nothing. */
  check(key: string): Promise<LimitDecision> {
    return this.#decide(key, true);
  }

  /** What `check` would answer now, without counting anything or creating an entry. */
  peek(key: string): Promise<LimitDecision> {
    return this.#decide(key, false);
  }

  async #decide(key: string, count: boolean): Promise<LimitDecision> {
    const { client, prefix, windowMs, timeoutMs, clock } = this.#options;
    const reply = await SCRIPT.run(
      client,
      {
        keys: [prefix + key],
        args: [String(this.limit), String(windowMs), count ? "1" : "0", clock ? String(clock.now()) : ""],
      },
      timeoutMs,
    );
    const [admitted, value] = integerReply(reply, 2) as [number, number];
    return admitted === 1 ? allowedDecision(this.limit, value) : refusedDecision(this.limit, value);
  }
}
