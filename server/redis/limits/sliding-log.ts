import type { Clock } from "../../core/clock.ts";
import { allowedDecision, type LimitDecision, refusedDecision } from "../../limits/decision.ts";
import type { PairRefusal } from "../../limits/sliding-log.ts";
import { answerWithin } from "../bounded.ts";
import { integerReply, RedisScript, type ScriptClient } from "../script.ts";
import { LUA_LOG } from "./log-lua.ts";
import { LUA_NOW } from "./lua-now.ts";

/**
 * The exact sliding log of ../sliding-log.ts in one sorted set per key, decided atomically by one
 * Lua call, so every instance sharing the Redis sees one log: no rolling window ever holds more than
 * the limit, whichever instance admitted the requests.
 *
 * Same rules as in process: entries with `t <= now − window` are gone; with `count ≥ limit` the
 * request is refused and nothing recorded, and it fits again once the (count − limit)-th oldest entry
 * leaves (the oldest, unless the limit was lowered meanwhile). "Now" is Redis's `TIME`, one clock for
 * every instance. Members must be unique across instances: the caller's instance id and a counter.
 *
 * ARGV: limit, window ms, member ("" = peek: decide without recording), now ms ("" = Redis TIME).
 * Reply: {1, count before} when admitted, {0, ms until a request would fit} when refused.
 */
export const SLIDING_LOG_LUA = `
${LUA_NOW}
${LUA_LOG}
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local count, wait = log_wait(KEYS[1], limit, window, now)
if wait > 0 then return {0, wait} end
if ARGV[3] ~= '' then log_add(KEYS[1], ARGV[3], window, now) end
return {1, count}
`;

/**
 * Two logs decided together (KEYS[1], KEYS[2]): the request is recorded in both when both have room,
 * else in neither. ARGV: the first's limit and window ms, member, now ms ("" = Redis TIME), the
 * second's limit and window ms. Reply: 1 when admitted, 0 when refused.
 */
const PAIR_LUA = `
${LUA_NOW}
${LUA_LOG}
local firstWindow = tonumber(ARGV[2])
local secondWindow = tonumber(ARGV[6])
local _, firstWait = log_wait(KEYS[1], tonumber(ARGV[1]), firstWindow, now)
if firstWait > 0 then return 0 end
local _, secondWait = log_wait(KEYS[2], tonumber(ARGV[5]), secondWindow, now)
if secondWait > 0 then return 2 end
log_add(KEYS[1], ARGV[3], firstWindow, now)
log_add(KEYS[2], ARGV[3], secondWindow, now)
return 1
`;

const SCRIPT = new RedisScript(SLIDING_LOG_LUA);
const PAIR = new RedisScript(PAIR_LUA);

export interface RedisSlidingLogOptions {
  client: ScriptClient;
  windowMs: number;
  /** Prepended to every key, e.g. `cuebot:rl:bot:`; one prefix per quota. */
  prefix: string;
  /** Longest wait for Redis's answer per check before StoreUnavailableError. */
  timeoutMs: number;
  /** Tells this instance's log entries apart from other instances'; random when omitted. */
  instanceId?: string;
  /** Tests only: decide at this clock's time instead of Redis's `TIME`. */
  clock?: Clock;
}

/**
 * ../sliding-log.ts's SlidingLog with the log in Redis: the same methods and answers, asynchronous.
 * A check that cannot reach Redis within `timeoutMs` rejects with StoreUnavailableError.
 */
export class RedisSlidingLog<Key extends string | number = string | number> {
  readonly #options: RedisSlidingLogOptions;
  readonly #instanceId: string;
  #sequence = 0;

  constructor(options: RedisSlidingLogOptions) {
    this.#options = options;
    this.#instanceId = options.instanceId ?? crypto.randomUUID();
  }

  /** Admits and records the request when the key is under `limit`; a refusal records nothing. */
  check(key: Key, limit: number): Promise<LimitDecision> {
    return this.#decide(key, limit, `${this.#instanceId}:${++this.#sequence}`);
  }

  /** What `check` would answer now, without recording anything. */
  peek(key: Key, limit: number): Promise<LimitDecision> {
    return this.#decide(key, limit, "");
  }

  /**
   * Admits and records the request under `key` here and under `otherKey` in `other` (on the same
   * Redis) when both have room (null), else records nothing in either and says which log is full:
   * one script, one round trip.
   */
  async checkWith<Other extends string | number>(
    key: Key,
    limit: number,
    other: RedisSlidingLog<Other>,
    otherKey: Other,
    otherLimit: number,
  ): Promise<PairRefusal | null> {
    const { client, prefix, windowMs, timeoutMs, clock } = this.#options;
    const call = {
      keys: [prefix + String(key), other.#options.prefix + String(otherKey)],
      args: [
        String(limit),
        String(windowMs),
        `${this.#instanceId}:${++this.#sequence}`,
        clock ? String(clock.now()) : "",
        String(otherLimit),
        String(other.#options.windowMs),
      ],
    };
    const answer = await PAIR.run(client, call, timeoutMs);
    return answer === 1 ? null : answer === 2 ? "other" : "this";
  }

  /** Forgets a key (an account was deleted). */
  async forget(key: Key): Promise<void> {
    await answerWithin(this.#options.client.del(this.#options.prefix + String(key)), this.#options.timeoutMs);
  }

  async #decide(key: Key, limit: number, member: string): Promise<LimitDecision> {
    if (!Number.isInteger(limit) || limit < 1) {
      throw new RangeError(`limit must be a positive integer: ${limit}`);
    }
    const { client, prefix, windowMs, timeoutMs, clock } = this.#options;
    const reply = await SCRIPT.run(
      client,
      {
        keys: [prefix + String(key)],
        args: [String(limit), String(windowMs), member, clock ? String(clock.now()) : ""],
      },
      timeoutMs,
    );
    const [admitted, value] = integerReply(reply, 2) as [number, number];
    return admitted === 1 ? allowedDecision(limit, limit - value - 1) : refusedDecision(limit, value);
  }
}
