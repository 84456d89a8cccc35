import { accountLimit, type QuotaAccount } from "../../limits/account-quotas.ts";
import { budgetRefusal, type ChatBudgetRefusal, chatterKey } from "../../limits/chatter-limits.ts";
import { CHATTER_LIMIT } from "../../limits/tables.ts";
import type { RedisQuotaOptions } from "./account-quotas.ts";
import { RedisSlidingLog } from "./sliding-log.ts";

/**
 * ../chatter-limits.ts's ChatterLimits with the logs in Redis (`<prefix>rl:chatter:<account>:<user
 * id>`, expiring with the window, beside RedisAccountQuotas' chat log), so a chatter's answers and
 * the channel's chat budget are counted across every instance: both decided in one script.
 */
export class RedisChatterLimits {
  readonly #log: RedisSlidingLog<string>;
  readonly #channel: RedisSlidingLog<number>;

  constructor(options: RedisQuotaOptions, channel: RedisSlidingLog<number>) {
    this.#log = new RedisSlidingLog<string>({
      client: options.client,
      windowMs: CHATTER_LIMIT.windowMs,
      prefix: `${options.keyPrefix ?? "cuebot:"}rl:chatter:`,
      timeoutMs: options.timeoutMs,
      clock: options.clock,
    });
    this.#channel = channel;
  }

  async check(account: QuotaAccount, chatterId: string | null): Promise<ChatBudgetRefusal | null> {
    const channelLimit = accountLimit("chat", account);
    if (chatterId === null)
      return (await this.#channel.check(account.id, channelLimit)).allowed ? null : "chat_budget";
    const key = chatterKey(account.id, chatterId);
    return budgetRefusal(
      await this.#log.checkWith(key, CHATTER_LIMIT.limit, this.#channel, account.id, channelLimit),
    );
  }
}
