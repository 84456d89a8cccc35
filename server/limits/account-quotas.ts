import type { Role } from "../../db/schema-enums.ts";
import type { Clock } from "../core/clock.ts";
import type { LimitDecision } from "./decision.ts";
import { SlidingLog } from "./sliding-log.ts";
import { panelLimit, ROLE_QUOTAS, WINDOW_MS } from "./tables.ts";

/** What a quota needs to know about an account: who it is and what its role allows right now. */
export interface QuotaAccount {
  id: number;
  role: Role;
  panelLimitOverride: number | null;
}

/** `chat`: commands read from the channel's chat (native chat), sized like the bot quota but apart from it. */
export type AccountQuotaName = "bot" | "heavy" | "panel" | "chat";

/**
 * The per-account quotas of CONTRACT §7: bot calls and heavy calls with the API key, and everything
 * done with the account's session or overlay token (panel), and commands read from chat (chat). Four
 * separate exact logs, so a heavy call with a key does not count against the bot quota, and no chatter
 * can use up the quota the streamer's own bots call with. The limit is read from the account on every call,
 * so a role change or override applies at once to what is already in the window. Keyed by account id,
 * so the logs are bounded by the number of accounts.
 */
export class AccountQuotas {
  readonly #logs: Record<AccountQuotaName, SlidingLog<number>>;

  constructor(clock: Clock) {
    this.#logs = {
      bot: new SlidingLog({ windowMs: WINDOW_MS, clock }),
      heavy: new SlidingLog({ windowMs: WINDOW_MS, clock }),
      panel: new SlidingLog({ windowMs: WINDOW_MS, clock }),
      chat: new SlidingLog({ windowMs: WINDOW_MS, clock }),
    };
  }

  /** Bot endpoints called with the API key (followage, shoutout, game API with a key, …). */
  checkBot(account: QuotaAccount): LimitDecision {
    return this.check("bot", account);
  }

  /** get-clips and chatters called with the API key. */
  checkHeavy(account: QuotaAccount): LimitDecision {
    return this.check("heavy", account);
  }

  /** Every request with the account's session (heavy ones included) and its overlay-token reads. */
  checkPanel(account: QuotaAccount): LimitDecision {
    return this.check("panel", account);
  }

  check(quota: AccountQuotaName, account: QuotaAccount): LimitDecision {
    return this.#logs[quota].check(account.id, accountLimit(quota, account));
  }

  /** One quota's log (native chat's budgets decide the chat log together with a chatter's). */
  log(quota: AccountQuotaName): SlidingLog<number> {
    return this.#logs[quota];
  }

  /** Drops an account's logs (the account was deleted). */
  forget(accountId: number): void {
    for (const log of Object.values(this.#logs)) log.forget(accountId);
  }
}

export function accountLimit(quota: AccountQuotaName, account: QuotaAccount): number {
  if (quota === "panel") return panelLimit(account.role, account.panelLimitOverride);
  return ROLE_QUOTAS[account.role][quota === "chat" ? "bot" : quota];
}
