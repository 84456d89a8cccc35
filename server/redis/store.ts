import type { RedisClient } from "./client.ts";

/**
 * What every Redis-backed piece needs (limits, cooldowns, the game provider's cache and budget): the
 * command connection, the prefix of every key it writes, and how long one call may take before the
 * store counts as away (StoreUnavailableError).
 */
export interface RedisStore {
  client: RedisClient;
  keyPrefix: string;
  timeoutMs: number;
}
