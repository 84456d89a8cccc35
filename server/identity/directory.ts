import { LRUCache } from "lru-cache";
import { type Account, findAccountById } from "../../db/accounts.ts";
import type { Db } from "../../db/client.ts";
import { type CredentialKind, findCredential, touchCredential } from "../../db/credentials.ts";
import { sha256Hex } from "./secrets.ts";

/**
 * Cached lookups from a presented secret (API key, overlay token) to its account. Entries are keyed by
 * the secret's SHA-256, never by the secret. Any change to keys, tokens or roles — ours or the CLI's
 * (seen through data_version) — calls `invalidate()`.
 */
export class AccountDirectory {
  readonly #credentials = new LRUCache<string, { accountId: number; lastUsedAt: number | null }>({
    max: 10_000,
    ttl: 5 * 60_000,
  });
  readonly #accounts = new LRUCache<number, Account>({ max: 10_000, ttl: 5 * 60_000 });
  /** Secrets known not to match, so a flood of wrong keys costs one hash each, not a query. */
  readonly #misses = new LRUCache<string, true>({ max: 10_000, ttl: 30_000 });

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {}

  byCredential(kind: CredentialKind, secret: string): Account | null {
    const key = `${kind}:${sha256Hex(secret)}`;
    if (this.#misses.has(key)) return null;
    let match = this.#credentials.get(key);
    if (!match) {
      const found = findCredential(this.db, kind, secret);
      if (!found) {
        this.#misses.set(key, true);
        return null;
      }
      match = found;
      this.#credentials.set(key, match);
    }
    const account = this.account(match.accountId);
    if (!account) return null;
    touchCredential(this.db, kind, match, this.now());
    return account;
  }

  account(id: number): Account | null {
    let account = this.#accounts.get(id);
    if (!account) {
      account = findAccountById(this.db, id);
      if (!account) return null;
      this.#accounts.set(id, account);
    }
    return account;
  }

  invalidate(): void {
    this.#credentials.clear();
    this.#accounts.clear();
    this.#misses.clear();
  }
}
