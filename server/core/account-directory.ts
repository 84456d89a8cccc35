import { LRUCache } from "lru-cache";
import { type Account, countAccounts, findAccountById } from "../../db/accounts.ts";
import {
  type CredentialKind,
  type CredentialMatch,
  type CredentialTouchWriter,
  findCredential,
  touchCredential,
  touchDue,
} from "../../db/credentials.ts";
import type { DataStore } from "../../db/data-store.ts";
import { sha256Hex } from "../../db/lookup-hash.ts";
import type { MaybePromise } from "./maybe-promise.ts";

/** How long the account count is believed without a change seen (another instance's new account). */
const ACCOUNT_COUNT_TTL_MS = 60_000;

/**
 * Cached lookups from a presented secret (API key, overlay token) to its account. Entries are keyed by
 * the secret's SHA-256, never by the secret. Any change to keys, tokens or roles — ours or the CLI's
 * (seen through data_version) — calls `invalidate()`. A hit answers at once; a miss answers once the
 * database has (on SQLite that is a microtask).
 */
export class AccountDirectory {
  // Made on first use: an LRUCache allocates its arrays for `max` entries up front, and the three cost
  // every CLI command ~2.4 ms of its start for caches it never reads.
  #credentialCache: LRUCache<string, CredentialMatch> | null = null;
  #accountCache: LRUCache<number, Account> | null = null;
  /** Secrets known not to match, so a flood of wrong keys costs one hash each, not a query. */
  #missCache: LRUCache<string, true> | null = null;
  /** Bumped by `invalidate()`: a lookup that started before it does not fill the caches after it. */
  #generation = 0;
  /** The number of accounts and when it was counted (ms), or null until asked or after `invalidate()`. */
  #count: { n: number; at: number } | null = null;
  #touches: CredentialTouchWriter | null = null;

  constructor(
    private readonly db: DataStore,
    private readonly now: () => number,
    private readonly onTouchError: (error: unknown) => void,
  ) {}

  byCredential(kind: CredentialKind, secret: string): MaybePromise<Account | null> {
    const lookupHash = sha256Hex(secret);
    const key = `${kind}:${lookupHash}`;
    // Known keys first: the common request asks one cache, not two.
    const match = this.#credentials.get(key);
    if (match) return this.#accountOf(kind, match);
    if (this.#misses.has(key)) return null;
    const generation = this.#generation;
    return findCredential(this.db, kind, lookupHash).then((found) => {
      const current = generation === this.#generation;
      if (!found) {
        if (current) this.#misses.set(key, true);
        return null;
      }
      if (current) this.#credentials.set(key, found);
      return this.#accountOf(kind, found);
    });
  }

  account(id: number): MaybePromise<Account | null> {
    const account = this.#accounts.get(id);
    if (account) return account;
    const generation = this.#generation;
    return findAccountById(this.db, id).then((found) => {
      if (!found) return null;
      if (generation === this.#generation) this.#accounts.set(id, found);
      return found;
    });
  }

  /**
   * How many accounts the install holds: counted once, then kept until an account change here or
   * the CLI's (`invalidate()`), or for a minute (another instance's first login on a shared database).
   */
  accountCount(): MaybePromise<number> {
    const now = this.now();
    if (this.#count && now - this.#count.at < ACCOUNT_COUNT_TTL_MS) return this.#count.n;
    const generation = this.#generation;
    return countAccounts(this.db).then((n) => {
      if (generation === this.#generation) this.#count = { n, at: now };
      return n;
    });
  }

  /**
   * From now on `last_used_at` is written through `writer` (a serving instance's database worker), so
   * no request waits for that write; `null` writes through the store again.
   */
  writeTouchesThrough(writer: CredentialTouchWriter | null): void {
    this.#touches = writer;
  }

  invalidate(): void {
    this.#generation++;
    this.#credentialCache?.clear();
    this.#accountCache?.clear();
    this.#missCache?.clear();
    this.#count = null;
  }

  get #credentials(): LRUCache<string, CredentialMatch> {
    this.#credentialCache ??= new LRUCache({ max: 10_000, ttl: 5 * 60_000 });
    return this.#credentialCache;
  }

  get #accounts(): LRUCache<number, Account> {
    this.#accountCache ??= new LRUCache({ max: 10_000, ttl: 5 * 60_000 });
    return this.#accountCache;
  }

  get #misses(): LRUCache<string, true> {
    this.#missCache ??= new LRUCache({ max: 10_000, ttl: 30_000 });
    return this.#missCache;
  }

  #accountOf(kind: CredentialKind, match: CredentialMatch): MaybePromise<Account | null> {
    const found = this.account(match.accountId);
    // The common case (cached) without a closure per request.
    if (!(found instanceof Promise)) return this.#touched(kind, match, found);
    return found.then((account) => this.#touched(kind, match, account));
  }

  #touched(kind: CredentialKind, match: CredentialMatch, account: Account | null): Account | null {
    if (account) {
      const now = this.now();
      if (touchDue(match, now)) {
        if (this.#touches) this.#touches.touch(kind, match, now);
        else touchCredential(this.db, kind, match, now, this.onTouchError);
      }
    }
    return account;
  }
}
