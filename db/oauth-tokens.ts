import { eq } from "drizzle-orm";
import type { SecretBox } from "../server/identity/secrets.ts";
import type { Db } from "./client.ts";
import { oauthTokens } from "./schema.ts";

export interface ProviderTokens {
  accessToken: string;
  refreshToken: string;
  scopes: string[];
  expiresAt: number;
  validatedAt: number | null;
}

export function storeProviderTokens(
  db: Db,
  box: SecretBox,
  accountId: number,
  tokens: Omit<ProviderTokens, "validatedAt"> & { validatedAt?: number | null },
  now: number,
): void {
  const row = {
    accountId,
    accessTokenEncrypted: box.seal("oauth-token", tokens.accessToken, accountId),
    refreshTokenEncrypted: box.seal("oauth-token", tokens.refreshToken, accountId),
    scopes: JSON.stringify(tokens.scopes),
    expiresAt: tokens.expiresAt,
    validatedAt: tokens.validatedAt ?? now,
    updatedAt: now,
  };
  db.insert(oauthTokens)
    .values(row)
    .onConflictDoUpdate({ target: oauthTokens.accountId, set: { ...row, accountId: undefined } })
    .run();
}

export function loadProviderTokens(db: Db, box: SecretBox, accountId: number): ProviderTokens | null {
  const row = db.select().from(oauthTokens).where(eq(oauthTokens.accountId, accountId)).get();
  if (!row) return null;
  return {
    accessToken: box.open("oauth-token", row.accessTokenEncrypted, accountId),
    refreshToken: box.open("oauth-token", row.refreshTokenEncrypted, accountId),
    scopes: JSON.parse(row.scopes) as string[],
    expiresAt: row.expiresAt,
    validatedAt: row.validatedAt,
  };
}

export function grantedScopes(db: Db, accountId: number): string[] {
  const row = db
    .select({ scopes: oauthTokens.scopes })
    .from(oauthTokens)
    .where(eq(oauthTokens.accountId, accountId))
    .get();
  return row ? (JSON.parse(row.scopes) as string[]) : [];
}

export function markTokensValidated(db: Db, accountId: number, now: number): void {
  db.update(oauthTokens).set({ validatedAt: now }).where(eq(oauthTokens.accountId, accountId)).run();
}

export function listAccountsWithTokens(db: Db): number[] {
  return db
    .select({ accountId: oauthTokens.accountId })
    .from(oauthTokens)
    .all()
    .map((r) => r.accountId);
}

export function deleteProviderTokens(db: Db, accountId: number): void {
  db.delete(oauthTokens).where(eq(oauthTokens.accountId, accountId)).run();
}
