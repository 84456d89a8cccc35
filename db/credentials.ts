import { eq } from "drizzle-orm";
import type { SecretBox } from "../server/identity/secrets.ts";
import { sha256Hex } from "../server/identity/secrets.ts";
import type { Db } from "./client.ts";
import { apiKeys, overlayTokens } from "./schema.ts";

/**
 * API keys and overlay tokens share one storage scheme: a SHA-256 lookup hash plus an AES-GCM sealed
 * copy (AAD = account id) so the owner and the admin can see the value again.
 */
export type CredentialKind = "api-key" | "overlay-token";

const TABLES = { "api-key": apiKeys, "overlay-token": overlayTokens } as const;

/** `last_used_at` is written at most this often per credential, not on every request. */
const TOUCH_INTERVAL_MS = 60_000;

export function storeCredential(
  db: Db,
  box: SecretBox,
  kind: CredentialKind,
  accountId: number,
  value: string,
  now: number,
): void {
  const table = TABLES[kind];
  const row = {
    accountId,
    lookupHash: sha256Hex(value),
    encrypted: box.seal(kind, value, accountId),
    createdAt: now,
    lastUsedAt: null,
  };
  db.insert(table)
    .values(row)
    .onConflictDoUpdate({ target: table.accountId, set: { ...row, accountId: undefined } })
    .run();
}

export interface CredentialMatch {
  accountId: number;
  lastUsedAt: number | null;
}

export function findCredential(db: Db, kind: CredentialKind, value: string): CredentialMatch | undefined {
  const table = TABLES[kind];
  return db
    .select({ accountId: table.accountId, lastUsedAt: table.lastUsedAt })
    .from(table)
    .where(eq(table.lookupHash, sha256Hex(value)))
    .get();
}

export function revealCredential(
  db: Db,
  box: SecretBox,
  kind: CredentialKind,
  accountId: number,
): string | null {
  const table = TABLES[kind];
  const row = db
    .select({ encrypted: table.encrypted })
    .from(table)
    .where(eq(table.accountId, accountId))
    .get();
  return row ? box.open(kind, row.encrypted, accountId) : null;
}

export function touchCredential(db: Db, kind: CredentialKind, match: CredentialMatch, now: number): void {
  if (match.lastUsedAt !== null && now - match.lastUsedAt < TOUCH_INTERVAL_MS) return;
  const table = TABLES[kind];
  db.update(table).set({ lastUsedAt: now }).where(eq(table.accountId, match.accountId)).run();
  match.lastUsedAt = now;
}
