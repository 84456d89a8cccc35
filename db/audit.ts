import { asc, eq } from "drizzle-orm";
import type { Db } from "./client.ts";
import { auditLog } from "./schema.ts";

export type AuditAction =
  | "account.create"
  | "account.rename"
  | "account.delete"
  | "role.set"
  | "panel-limit.override"
  | "key.rotate"
  | "key.reveal"
  | "key.show"
  | "overlay.rotate"
  | "account.export";

export interface AuditEntry {
  accountId: number | null;
  login: string;
  /** `cli` for the admin's terminal, `panel` for the streamer's dashboard, `system` for cuebot itself. */
  actor: "cli" | "panel" | "system";
  action: AuditAction;
  detail?: Record<string, string | number | boolean | null>;
}

export function recordAudit(db: Db, entry: AuditEntry, now: number): void {
  db.insert(auditLog)
    .values({
      at: now,
      accountId: entry.accountId,
      login: entry.login,
      actor: entry.actor,
      action: entry.action,
      detail: JSON.stringify(entry.detail ?? {}),
    })
    .run();
}

export interface AuditRecord {
  at: string;
  actor: string;
  action: string;
  detail: Record<string, unknown>;
}

export function listAudit(db: Db, accountId: number): AuditRecord[] {
  return db
    .select()
    .from(auditLog)
    .where(eq(auditLog.accountId, accountId))
    .orderBy(asc(auditLog.at), asc(auditLog.id))
    .all()
    .map((row) => ({
      at: new Date(row.at).toISOString(),
      actor: row.actor,
      action: row.action,
      detail: JSON.parse(row.detail) as Record<string, unknown>,
    }));
}

export function deleteAuditOf(db: Db, accountId: number): void {
  db.delete(auditLog).where(eq(auditLog.accountId, accountId)).run();
}
