import { chatterKey } from "../chatter-limits.ts";
import type { LimitDecision } from "../decision.ts";
import { CHATTER_LIMIT } from "../tables.ts";
import type { RedisQuotaOptions } from "./account-quotas.ts";
import { RedisSlidingLog } from "./sliding-log.ts";

/**
 * ../chatter-limits.ts's ChatterLimits with the logs in Redis (`<prefix>rl:chatter:<account>:<user
 * id>`, expiring with the window), so a chatter's answers are counted across every instance.
 */
export class RedisChatterLimits {
  readonly #log: RedisSlidingLog<string>;

  constructor(options: RedisQuotaOptions) {
    this.#log = new RedisSlidingLog<string>({
      client: options.client,
      windowMs: CHATTER_LIMIT.windowMs,
      prefix: `${options.keyPrefix ?? "cuebot:"}rl:chatter:`,
      timeoutMs: options.timeoutMs,
      clock: options.clock,
    });
  }

  check(accountId: number, chatterId: string): Promise<LimitDecision> {
    return this.#log.check(chatterKey(accountId, chatterId), CHATTER_LIMIT.limit);
  }
}
