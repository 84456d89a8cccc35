import { asc, count, eq } from "drizzle-orm";
import type { DataStore } from "./data-store.ts";
import type { Role } from "./schema-enums.ts";
import type { accounts } from "./sqlite/schema.ts";

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

export async function insertAccount(
  s: DataStore,
  profile: AccountProfile,
  now: number,
  role: Role = "Default",
): Promise<Account> {
  const row = await s.first((db, t) =>
    db
      .insert(t.accounts)
      .values({
        twitchUserId: profile.twitchUserId,
        login: normalizeLogin(profile.login),
        displayName: profile.displayName,
        profileImageUrl: profile.profileImageUrl ?? "",
        timezone: profile.timezone ?? "UTC",
        role,
        createdAt: now,
        updatedAt: now,
      })
      .returning(),
  );
  return row!;
}

export async function updateAccountProfile(
  s: DataStore,
  id: number,
  profile: AccountProfile,
  now: number,
): Promise<Account> {
  const row = await s.first((db, t) =>
    db
      .update(t.accounts)
      .set({
        login: normalizeLogin(profile.login),
        displayName: profile.displayName,
        profileImageUrl: profile.profileImageUrl ?? "",
        ...(profile.timezone ? { timezone: profile.timezone } : {}),
        needsReauth: false,
        updatedAt: now,
      })
      .where(eq(t.accounts.id, id))
      .returning(),
  );
  return row!;
}

export function findAccountByLogin(s: DataStore, login: string): Promise<Account | undefined> {
  return s.first((db, t) =>
    db
      .select()
      .from(t.accounts)
      .where(eq(t.accounts.login, normalizeLogin(login)))
      .limit(1),
  );
}

export function findAccountById(s: DataStore, id: number): Promise<Account | undefined> {
  return s.first((db, t) => db.select().from(t.accounts).where(eq(t.accounts.id, id)).limit(1));
}

export function findAccountByTwitchId(s: DataStore, twitchUserId: string): Promise<Account | undefined> {
  return s.first((db, t) =>
    db.select().from(t.accounts).where(eq(t.accounts.twitchUserId, twitchUserId)).limit(1),
  );
}

export function listAccounts(s: DataStore): Promise<Account[]> {
  return s.all((db, t) => db.select().from(t.accounts).orderBy(asc(t.accounts.login)));
}

/** How many accounts the install holds (one streamer's own install has one). */
export async function countAccounts(s: DataStore): Promise<number> {
  const row = await s.first((db, t) => db.select({ n: count() }).from(t.accounts));
  return row?.n ?? 0;
}

export function setAccountRole(s: DataStore, id: number, role: Role, now: number): Promise<void> {
  return s.run((db, t) => db.update(t.accounts).set({ role, updatedAt: now }).where(eq(t.accounts.id, id)));
}

export function setPanelLimitOverride(
  s: DataStore,
  id: number,
  override: number | null,
  now: number,
): Promise<void> {
  return s.run((db, t) =>
    db.update(t.accounts).set({ panelLimitOverride: override, updatedAt: now }).where(eq(t.accounts.id, id)),
  );
}

export function setNeedsReauth(s: DataStore, id: number, needsReauth: boolean, now: number): Promise<void> {
  return s.run((db, t) =>
    db.update(t.accounts).set({ needsReauth, updatedAt: now }).where(eq(t.accounts.id, id)),
  );
}

/** Renames an account whose login another Twitch user now holds, so the newcomer can have it. */
export function releaseLogin(s: DataStore, id: number, placeholder: string, now: number): Promise<void> {
  return s.run((db, t) =>
    db.update(t.accounts).set({ login: placeholder, updatedAt: now }).where(eq(t.accounts.id, id)),
  );
}

/** Removes the account; every row that belongs to it goes with it (ON DELETE CASCADE). */
export function deleteAccountRow(s: DataStore, id: number): Promise<void> {
  return s.run((db, t) => db.delete(t.accounts).where(eq(t.accounts.id, id)));
}
