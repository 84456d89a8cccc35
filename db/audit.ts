import { asc, eq } from "drizzle-orm";
import type { DataStore } from "./data-store.ts";

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

export function recordAudit(s: DataStore, entry: AuditEntry, now: number): Promise<void> {
  return s.run((db, t) =>
    db.insert(t.auditLog).values({
      at: now,
      accountId: entry.accountId,
      login: entry.login,
      actor: entry.actor,
      action: entry.action,
      detail: JSON.stringify(entry.detail ?? {}),
    }),
  );
}

export interface AuditRecord {
  at: string;
  actor: string;
  action: string;
  detail: Record<string, unknown>;
}

export async function listAudit(s: DataStore, accountId: number): Promise<AuditRecord[]> {
  const rows = await s.all((db, t) =>
    db
      .select()
      .from(t.auditLog)
      .where(eq(t.auditLog.accountId, accountId))
      .orderBy(asc(t.auditLog.at), asc(t.auditLog.id)),
  );
  return rows.map((row) => ({
    at: new Date(row.at).toISOString(),
    actor: row.actor,
    action: row.action,
    detail: JSON.parse(row.detail) as Record<string, unknown>,
  }));
}

export function deleteAuditOf(s: DataStore, accountId: number): Promise<void> {
  return s.run((db, t) => db.delete(t.auditLog).where(eq(t.auditLog.accountId, accountId)));
}
