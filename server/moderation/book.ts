import { LRUCache } from "lru-cache";
import type { MaybePromise } from "../core/maybe-promise.ts";

/** A chatter's offence counts as a repeat within this long of their last one (CONTRACT §6). */
export const OFFENCE_WINDOW_MS = 60 * 60_000;
/** At most one warning per chatter per this long. */
export const WARNING_GAP_MS = 30_000;

/**
 * What moderation remembers of chatters, shared by every instance where Redis is configured
 * (redis/moderation-book.ts) and kept in this process otherwise: offences within the hour, the
 * links permits `!permit` gave, and when each chatter was last warned.
 */
export interface ModerationBook {
  /** Records an offence now; true when the chatter had another within the hour before it. */
  offend(accountId: number, chatterId: string, now: number): MaybePromise<boolean>;
  /** Lets the chatter (by login, lower case) post links from `now` until `until`. */
  permit(accountId: number, login: string, until: number, now: number): MaybePromise<void>;
  permitted(accountId: number, login: string, now: number): MaybePromise<boolean>;
  /** True (and counted) when the chatter was not warned in the last 30 s. */
  mayWarn(accountId: number, chatterId: string, now: number): MaybePromise<boolean>;
}

/** Most chatters remembered per kind in one process; the oldest go first past it. */
const MAX_REMEMBERED = 100_000;

/** The in-process book (one instance, or no Redis). */
export class MemoryModerationBook implements ModerationBook {
  readonly #offences = new LRUCache<string, number>({ max: MAX_REMEMBERED });
  readonly #permits = new LRUCache<string, number>({ max: MAX_REMEMBERED });
  readonly #warned = new LRUCache<string, number>({ max: MAX_REMEMBERED });

  offend(accountId: number, chatterId: string, now: number): boolean {
    const key = `${accountId}:${chatterId}`;
    const last = this.#offences.get(key);
    this.#offences.set(key, now);
    return last !== undefined && now - last < OFFENCE_WINDOW_MS;
  }

  permit(accountId: number, login: string, until: number): void {
    this.#permits.set(`${accountId}:${login}`, until);
  }

  permitted(accountId: number, login: string, now: number): boolean {
    const until = this.#permits.get(`${accountId}:${login}`);
    return until !== undefined && now < until;
  }

  mayWarn(accountId: number, chatterId: string, now: number): boolean {
    const key = `${accountId}:${chatterId}`;
    const last = this.#warned.get(key);
    if (last !== undefined && now - last < WARNING_GAP_MS) return false;
    this.#warned.set(key, now);
    return true;
  }
}
