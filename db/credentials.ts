import { and, eq } from "drizzle-orm";
import type { DataStore, Tables } from "./data-store.ts";
import { sha256Hex } from "./lookup-hash.ts";
import type { Sealer } from "./sealing.ts";

/**
 * API keys and overlay tokens share one storage scheme: a SHA-256 lookup hash plus an AES-GCM sealed
 * copy (AAD = account id) so the owner and the admin can see the value again.
 */
export type CredentialKind = "api-key" | "overlay-token";

const table = (t: Tables, kind: CredentialKind) => (kind === "api-key" ? t.apiKeys : t.overlayTokens);

/** `last_used_at` is written at most this often per credential, not on every request. */
const TOUCH_INTERVAL_MS = 60_000;

export function storeCredential(
  s: DataStore,
  box: Sealer,
  kind: CredentialKind,
  accountId: number,
  value: string,
  now: number,
): Promise<void> {
  const row = {
    accountId,
    lookupHash: sha256Hex(value),
    encrypted: box.seal(kind, value, accountId),
    createdAt: now,
    lastUsedAt: null,
  };
  return s.run((db, t) =>
    db
      .insert(table(t, kind))
      .values(row)
      .onConflictDoUpdate({ target: table(t, kind).accountId, set: { ...row, accountId: undefined } }),
  );
}

export interface CredentialMatch {
  accountId: number;
  /** Which credential matched: a note of its use must not land on the one that replaced it. */
  lookupHash: string;
  lastUsedAt: number | null;
}

/** The credential whose value hashes to `lookupHash` (sha256Hex of the presented value, hashed once by the caller). */
export function findCredential(
  s: DataStore,
  kind: CredentialKind,
  lookupHash: string,
): Promise<CredentialMatch | undefined> {
  return s.first((db, t) =>
    db
      .select({
        accountId: table(t, kind).accountId,
        lookupHash: table(t, kind).lookupHash,
        lastUsedAt: table(t, kind).lastUsedAt,
      })
      .from(table(t, kind))
      .where(eq(table(t, kind).lookupHash, lookupHash))
      .limit(1),
  );
}

export async function revealCredential(
  s: DataStore,
  box: Sealer,
  kind: CredentialKind,
  accountId: number,
): Promise<string | null> {
  const row = await s.first((db, t) =>
    db
      .select({ encrypted: table(t, kind).encrypted })
      .from(table(t, kind))
      .where(eq(table(t, kind).accountId, accountId))
      .limit(1),
  );
  return row ? box.open(kind, row.encrypted, accountId) : null;
}

/**
 * Whether `last_used_at` of this credential is due to be written now (at most once per
 * TOUCH_INTERVAL_MS); when it is, the cached match is marked as written.
 */
export function touchDue(match: CredentialMatch, now: number): boolean {
  if (match.lastUsedAt !== null && now - match.lastUsedAt < TOUCH_INTERVAL_MS) return false;
  match.lastUsedAt = now;
  return true;
}

/**
 * Writes when a credential was last used. Best effort: the write is not awaited by requests, a failure
 * is reported to `onError`, and a credential replaced meanwhile (another lookup hash) is left alone.
 */
export function touchCredential(
  s: DataStore,
  kind: CredentialKind,
  match: Pick<CredentialMatch, "accountId" | "lookupHash">,
  now: number,
  onError: (error: unknown) => void,
): void {
  s.run((db, t) =>
    db
      .update(table(t, kind))
      .set({ lastUsedAt: now })
      .where(
        and(eq(table(t, kind).accountId, match.accountId), eq(table(t, kind).lookupHash, match.lookupHash)),
      ),
  ).catch(onError);
}

/** Where a serving instance writes `last_used_at` instead (the database worker, off the event loop). */
export interface CredentialTouchWriter {
  touch(kind: CredentialKind, match: Pick<CredentialMatch, "accountId" | "lookupHash">, at: number): void;
}
