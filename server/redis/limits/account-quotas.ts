import type { Clock } from "../../core/clock.ts";
import { type AccountQuotaName, accountLimit, type QuotaAccount } from "../../limits/account-quotas.ts";
import type { LimitDecision } from "../../limits/decision.ts";
import { WINDOW_MS } from "../../limits/tables.ts";
import type { ScriptClient } from "../script.ts";
import { RedisSlidingLog } from "./sliding-log.ts";

export interface RedisQuotaOptions {
  client: ScriptClient;
  /** Longest wait for Redis per check before StoreUnavailableError. */
  timeoutMs: number;
  /** Prepended to every key; `cuebot:` unless several deployments share one Redis. */
  keyPrefix?: string;
  /** Tests only: decide at this clock's time instead of Redis's `TIME`. */
  clock?: Clock;
}

const QUOTAS: readonly AccountQuotaName[] = ["bot", "heavy", "panel", "chat"];

/**
 * ../account-quotas.ts's AccountQuotas with the four logs in Redis (`<prefix>rl:<quota>:<account
 * id>`), shared by every instance: the same methods, limits and answers, asynchronous.
 */
export class RedisAccountQuotas {
  readonly #logs: Record<AccountQuotaName, RedisSlidingLog<number>>;

  constructor(options: RedisQuotaOptions) {
    const instanceId = crypto.randomUUID();
    const log = (quota: AccountQuotaName) =>
      new RedisSlidingLog<number>({
        client: options.client,
        windowMs: WINDOW_MS,
        prefix: `${options.keyPrefix ?? "cuebot:"}rl:${quota}:`,
        timeoutMs: options.timeoutMs,
        instanceId,
        clock: options.clock,
      });
    this.#logs = { bot: log("bot"), heavy: log("heavy"), panel: log("panel"), chat: log("chat") };
  }

  checkBot(account: QuotaAccount): Promise<LimitDecision> {
    return this.check("bot", account);
  }

  checkHeavy(account: QuotaAccount): Promise<LimitDecision> {
    return this.check("heavy", account);
  }

  checkPanel(account: QuotaAccount): Promise<LimitDecision> {
    return this.check("panel", account);
  }

  check(quota: AccountQuotaName, account: QuotaAccount): Promise<LimitDecision> {
    return this.#logs[quota].check(account.id, accountLimit(quota, account));
  }

  /** One quota's log (native chat's budgets decide the chat log together with a chatter's). */
  log(quota: AccountQuotaName): RedisSlidingLog<number> {
    return this.#logs[quota];
  }

  /** Drops an account's logs (the account was deleted). */
  async forget(accountId: number): Promise<void> {
    await Promise.all(QUOTAS.map((quota) => this.#logs[quota].forget(accountId)));
  }
}
