import { eq, lt } from "drizzle-orm";
import type { Db } from "./client.ts";
import { sessions } from "./schema.ts";

export type SessionRow = typeof sessions.$inferSelect;

export function insertSession(
  db: Db,
  row: { idHash: string; accountId: number; expiresAt: number; userAgent: string },
  now: number,
): void {
  db.insert(sessions)
    .values({ ...row, createdAt: now, lastSeenAt: now })
    .run();
}

export function findSession(db: Db, idHash: string): SessionRow | undefined {
  return db.select().from(sessions).where(eq(sessions.idHash, idHash)).get();
}

export function extendSession(db: Db, idHash: string, expiresAt: number, now: number): void {
  db.update(sessions).set({ expiresAt, lastSeenAt: now }).where(eq(sessions.idHash, idHash)).run();
}

export function deleteSession(db: Db, idHash: string): void {
  db.delete(sessions).where(eq(sessions.idHash, idHash)).run();
}

export function deleteSessionsOf(db: Db, accountId: number): number {
  return db.delete(sessions).where(eq(sessions.accountId, accountId)).returning({ id: sessions.idHash }).all()
    .length;
}

export function deleteExpiredSessions(db: Db, now: number): number {
  return db.delete(sessions).where(lt(sessions.expiresAt, now)).returning({ id: sessions.idHash }).all()
    .length;
}

export function countSessionsOf(db: Db, accountId: number): number {
  return db.select({ id: sessions.idHash }).from(sessions).where(eq(sessions.accountId, accountId)).all()
    .length;
}
