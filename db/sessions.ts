import { eq, lt } from "drizzle-orm";
import type { DataStore } from "./data-store.ts";
import type { sessions } from "./sqlite/schema.ts";

export type SessionRow = typeof sessions.$inferSelect;

export function insertSession(
  s: DataStore,
  row: { idHash: string; accountId: number; expiresAt: number; userAgent: string },
  now: number,
): Promise<void> {
  return s.run((db, t) => db.insert(t.sessions).values({ ...row, createdAt: now, lastSeenAt: now }));
}

export function findSession(s: DataStore, idHash: string): Promise<SessionRow | undefined> {
  return s.first((db, t) => db.select().from(t.sessions).where(eq(t.sessions.idHash, idHash)).limit(1));
}

export function extendSession(s: DataStore, idHash: string, expiresAt: number, now: number): Promise<void> {
  return s.run((db, t) =>
    db.update(t.sessions).set({ expiresAt, lastSeenAt: now }).where(eq(t.sessions.idHash, idHash)),
  );
}

export function deleteSession(s: DataStore, idHash: string): Promise<void> {
  return s.run((db, t) => db.delete(t.sessions).where(eq(t.sessions.idHash, idHash)));
}

export async function deleteSessionsOf(s: DataStore, accountId: number): Promise<number> {
  const gone = await s.all((db, t) =>
    db.delete(t.sessions).where(eq(t.sessions.accountId, accountId)).returning({ id: t.sessions.idHash }),
  );
  return gone.length;
}

export async function deleteExpiredSessions(s: DataStore, now: number): Promise<number> {
  const gone = await s.all((db, t) =>
    db.delete(t.sessions).where(lt(t.sessions.expiresAt, now)).returning({ id: t.sessions.idHash }),
  );
  return gone.length;
}

export async function countSessionsOf(s: DataStore, accountId: number): Promise<number> {
  const rows = await s.all((db, t) =>
    db.select({ id: t.sessions.idHash }).from(t.sessions).where(eq(t.sessions.accountId, accountId)),
  );
  return rows.length;
}
