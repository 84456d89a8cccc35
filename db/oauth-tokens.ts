import { eq } from "drizzle-orm";
import type { DataStore } from "./data-store.ts";
import type { Sealer } from "./sealing.ts";

export interface ProviderTokens {
  accessToken: string;
  refreshToken: string;
  scopes: string[];
  expiresAt: number;
  validatedAt: number | null;
}

export function storeProviderTokens(
  s: DataStore,
  box: Sealer,
  accountId: number,
  tokens: Omit<ProviderTokens, "validatedAt"> & { validatedAt?: number | null },
  now: number,
): Promise<void> {
  const row = {
    accountId,
    accessTokenEncrypted: box.seal("oauth-token", tokens.accessToken, accountId),
    refreshTokenEncrypted: box.seal("oauth-token", tokens.refreshToken, accountId),
    scopes: JSON.stringify(tokens.scopes),
    expiresAt: tokens.expiresAt,
    validatedAt: tokens.validatedAt ?? now,
    updatedAt: now,
  };
  return s.run((db, t) =>
    db
      .insert(t.oauthTokens)
      .values(row)
      .onConflictDoUpdate({ target: t.oauthTokens.accountId, set: { ...row, accountId: undefined } }),
  );
}

export async function loadProviderTokens(
  s: DataStore,
  box: Sealer,
  accountId: number,
): Promise<ProviderTokens | null> {
  const row = await s.first((db, t) =>
    db.select().from(t.oauthTokens).where(eq(t.oauthTokens.accountId, accountId)).limit(1),
  );
  if (!row) return null;
  return {
    accessToken: box.open("oauth-token", row.accessTokenEncrypted, accountId),
    refreshToken: box.open("oauth-token", row.refreshTokenEncrypted, accountId),
    scopes: JSON.parse(row.scopes) as string[],
    expiresAt: row.expiresAt,
    validatedAt: row.validatedAt,
  };
}

export async function grantedScopes(s: DataStore, accountId: number): Promise<string[]> {
  const row = await s.first((db, t) =>
    db
      .select({ scopes: t.oauthTokens.scopes })
      .from(t.oauthTokens)
      .where(eq(t.oauthTokens.accountId, accountId))
      .limit(1),
  );
  return row ? (JSON.parse(row.scopes) as string[]) : [];
}

export function markTokensValidated(s: DataStore, accountId: number, now: number): Promise<void> {
  return s.run((db, t) =>
    db.update(t.oauthTokens).set({ validatedAt: now }).where(eq(t.oauthTokens.accountId, accountId)),
  );
}

export async function listAccountsWithTokens(s: DataStore): Promise<number[]> {
  const rows = await s.all((db, t) => db.select({ accountId: t.oauthTokens.accountId }).from(t.oauthTokens));
  return rows.map((r) => r.accountId);
}
