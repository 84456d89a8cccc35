import { asc, eq } from "drizzle-orm";
import type { Db } from "./client.ts";
import { accounts, type Role } from "./schema.ts";

export type Account = typeof accounts.$inferSelect;

export interface AccountProfile {
  twitchUserId: string;
  login: string;
  displayName: string;
  profileImageUrl?: string;
  timezone?: string;
}

/** Logins are compared case-insensitively, so they are stored lowercase. */
export function normalizeLogin(login: string): string {
  return login.trim().replace(/^@/, "").toLowerCase();
}

export function insertAccount(db: Db, profile: AccountProfile, now: number): Account {
  return db
    .insert(accounts)
    .values({
      twitchUserId: profile.twitchUserId,
      login: normalizeLogin(profile.login),
      displayName: profile.displayName,
      profileImageUrl: profile.profileImageUrl ?? "",
      timezone: profile.timezone ?? "UTC",
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get();
}

export function updateAccountProfile(db: Db, id: number, profile: AccountProfile, now: number): Account {
  return db
    .update(accounts)
    .set({
      login: normalizeLogin(profile.login),
      displayName: profile.displayName,
      profileImageUrl: profile.profileImageUrl ?? "",
      ...(profile.timezone ? { timezone: profile.timezone } : {}),
      needsReauth: false,
      updatedAt: now,
    })
    .where(eq(accounts.id, id))
    .returning()
    .get();
}

export function findAccountByLogin(db: Db, login: string): Account | undefined {
  return db
    .select()
    .from(accounts)
    .where(eq(accounts.login, normalizeLogin(login)))
    .get();
}

export function findAccountById(db: Db, id: number): Account | undefined {
  return db.select().from(accounts).where(eq(accounts.id, id)).get();
}

export function findAccountByTwitchId(db: Db, twitchUserId: string): Account | undefined {
  return db.select().from(accounts).where(eq(accounts.twitchUserId, twitchUserId)).get();
}

export function listAccounts(db: Db): Account[] {
  return db.select().from(accounts).orderBy(asc(accounts.login)).all();
}

export function setAccountRole(db: Db, id: number, role: Role, now: number): void {
  db.update(accounts).set({ role, updatedAt: now }).where(eq(accounts.id, id)).run();
}

export function setPanelLimitOverride(db: Db, id: number, override: number | null, now: number): void {
  db.update(accounts).set({ panelLimitOverride: override, updatedAt: now }).where(eq(accounts.id, id)).run();
}

export function setNeedsReauth(db: Db, id: number, needsReauth: boolean, now: number): void {
  db.update(accounts).set({ needsReauth, updatedAt: now }).where(eq(accounts.id, id)).run();
}

/** Removes the account; every row that belongs to it goes with it (ON DELETE CASCADE). */
export function deleteAccountRow(db: Db, id: number): void {
  db.delete(accounts).where(eq(accounts.id, id)).run();
}
