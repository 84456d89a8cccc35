import { RELEASE_IF_HELD } from "./lock.ts";
import { RedisScript, type ScriptClient } from "./script.ts";

/**
 * Acquire: take the lease if free (SET NX PX) and issue a fencing token; if this owner already holds
 * it, extend it and return the current token; else 0. The token is max(last + 1, Redis time in ms),
 * so it keeps increasing even across a Redis restart that lost the counter (no persistence), as long
 * as Redis's clock does not step back.
 */
const ACQUIRE = new RedisScript(`
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  local token = math.max((tonumber(redis.call('GET', KEYS[2])) or 0) + 1, now)
  redis.call('SET', KEYS[2], string.format('%d', token))
  return token
end
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return tonumber(redis.call('GET', KEYS[2])) or 0
end
return 0
`);

/** Renew: extend only if this owner still holds the lease (1), else 0. */
const RENEW = new RedisScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
`);

/** Release: delete only if this owner still holds the lease (1), else 0. */

export interface LeaseOptions {
  client: ScriptClient;
  /** What is leased, e.g. `chat:42`; one holder per name across every instance. */
  name: string;
  ttlMs: number;
  /** Longest wait for Redis per call before StoreUnavailableError. */
  timeoutMs: number;
  /** Prepended to the keys; `cuebot:` unless several deployments share one Redis. */
  keyPrefix?: string;
  /** This holder's identity; random when omitted. */
  owner?: string;
}

export interface HeldLease {
  /** Fencing token: larger for every later holder. Writes made as holder carry it. */
  token: number;
  /**
   * Local `performance.now()` by which the holder must have renewed or stopped acting: the TTL counted
   * from before the request was sent, so it ends no later than the lease does in Redis.
   */
  validUntil: number;
}

/**
 * A lease in one Redis (scale-out.md §6): at most one holder per name at a time, as far as Redis's
 * expiry is honoured. An efficiency lock, not a correctness one: a paused holder may act after its
 * lease ended, which the fencing token lets the resource refuse and message-id dedupe makes harmless.
 * Renew every ~TTL/3; a holder that cannot renew before `validUntil` must stop.
 */
export class RedisLease {
  readonly owner: string;
  readonly #options: LeaseOptions;
  readonly #keys: string[];

  constructor(options: LeaseOptions) {
    this.#options = options;
    this.owner = options.owner ?? crypto.randomUUID();
    // A hash tag keeps both keys in one Redis Cluster slot, as a script touching both needs.
    const base = `${options.keyPrefix ?? "cuebot:"}{lease:${options.name}}`;
    this.#keys = [base, `${base}:fence`];
  }

  /** Takes (or keeps) the lease; null while another holder has it. */
  async acquire(): Promise<HeldLease | null> {
    const sentAt = performance.now();
    const token = await this.#run(ACQUIRE, this.#keys);
    return token ? { token, validUntil: sentAt + this.#options.ttlMs } : null;
  }

  /** Extends the lease; the new `validUntil`, or null when it was lost (expired, taken over). */
  async renew(): Promise<number | null> {
    const sentAt = performance.now();
    const held = await this.#run(RENEW, [this.#keys[0]!]);
    return held ? sentAt + this.#options.ttlMs : null;
  }

  /** Gives the lease up if still held, so a successor need not wait for the TTL. */
  async release(): Promise<boolean> {
    return (await this.#run(RELEASE_IF_HELD, [this.#keys[0]!])) === 1;
  }

  async #run(script: RedisScript, keys: string[]): Promise<number> {
    const reply = await script.run(
      this.#options.client,
      { keys, args: [this.owner, String(this.#options.ttlMs)] },
      this.#options.timeoutMs,
    );
    if (typeof reply !== "number") throw new TypeError(`unexpected lease reply: ${JSON.stringify(reply)}`);
    return reply;
  }
}
