import type { Cooldowns } from "../bot/cooldowns.ts";
import { MAX_COOLDOWN_SECONDS } from "../vocabulary.ts";
import type { RedisStore } from "./client.ts";
import { LUA_REDIS_TIME } from "./limits/lua-now.ts";
import { RedisScript } from "./script.ts";

/**
 * KEYS[1] holds `<began>:<claim>`: when the last run began on Redis's clock (so every instance
 * counts the rest on one clock) and the claiming run's own mark, by which it may take the claim back.
 * ARGV: the cooldown's seconds now, the run's mark. Reply: ms of rest left, or 0 after claiming.
 */
const CLAIM_LUA = `${LUA_REDIS_TIME}
local began = tonumber(string.match(redis.call('GET', KEYS[1]) or '', '^(%d+):'))
if began then
  local left = began + tonumber(ARGV[1]) * 1000 - now
  if left > 0 then return left end
end
redis.call('SET', KEYS[1], now .. ':' .. ARGV[2], 'PX', ${MAX_COOLDOWN_SECONDS * 1000})
return 0`;

/** ARGV: the run's mark. Deletes the claim only while it is still that run's. */
const RELEASE_LUA = `local held = redis.call('GET', KEYS[1])
if held and string.sub(held, -#ARGV[1] - 1) == ':' .. ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`;

const CLAIM = new RedisScript(CLAIM_LUA);
const RELEASE = new RedisScript(RELEASE_LUA);

/**
 * In Redis (`<prefix>cd:<account>:<command>`, holding when the last run began and living as long as
 * the longest cooldown could): a command with a cooldown costs one script per run (checked and
 * claimed at once), and one more only when a run gives its claim back; one without costs none. A
 * store that does not answer rejects with StoreUnavailableError.
 */
export class RedisCooldowns implements Cooldowns {
  readonly #instanceId = crypto.randomUUID();

  constructor(readonly store: RedisStore) {}

  async claim(accountId: number, command: string, seconds: number, now: number): Promise<number> {
    if (seconds <= 0) return 0;
    const { client, timeoutMs } = this.store;
    const call = { keys: [this.#key(accountId, command)], args: [String(seconds), this.#mark(now)] };
    const ms = Number(await CLAIM.run(client, call, timeoutMs));
    return ms > 0 ? Math.ceil(ms / 1000) : 0;
  }

  async release(accountId: number, command: string, seconds: number, now: number): Promise<void> {
    if (seconds <= 0) return;
    const call = { keys: [this.#key(accountId, command)], args: [this.#mark(now)] };
    await RELEASE.run(this.store.client, call, this.store.timeoutMs);
  }

  /** One run's mark: this instance and when the run began on its clock. */
  #mark(now: number): string {
    return `${this.#instanceId}:${now}`;
  }

  #key(accountId: number, command: string): string {
    return `${this.store.keyPrefix}cd:${accountId}:${command}`;
  }
}
