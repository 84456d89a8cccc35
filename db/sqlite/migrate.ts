import type { Database } from "bun:sqlite";
import { embeddedMigrations } from "../migrations.macro.ts" with { type: "macro" };
import type { EmbeddedMigration } from "../migrations.macro.ts";
import { pendingMigrations, type SchemaStatus, SchemaTooNewError, schemaStatus } from "../schema-status.ts";

/** Drizzle's own bookkeeping table, so drizzle-kit and this runner agree on what is applied. */
const TABLE = "__drizzle_migrations";

const MIGRATIONS: EmbeddedMigration[] = embeddedMigrations();

function appliedMillis(sqlite: Database): number[] {
  sqlite.exec(
    `CREATE TABLE IF NOT EXISTS ${TABLE} (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)`,
  );
  const rows = sqlite.query(`SELECT created_at FROM ${TABLE} ORDER BY created_at`).all() as {
    created_at: number;
  }[];
  return rows.map((r) => Number(r.created_at));
}

/**
 * Applies every embedded migration the database lacks, all in one transaction. A database that has
 * a migration this binary does not know was written by a newer cuebot: refuse rather than guess.
 */
export function migrate(sqlite: Database): SchemaStatus {
  if (pendingMigrations(appliedMillis(sqlite), MIGRATIONS).length === 0) return status(sqlite, []);
  // Several instances may start at once on a fresh folder: the write lock is taken first (IMMEDIATE),
  // and what is pending is decided again under it, so the second one finds the work done.
  const applied = sqlite
    .transaction(() => {
      const pending = pendingMigrations(appliedMillis(sqlite), MIGRATIONS);
      const insert = sqlite.prepare(`INSERT INTO ${TABLE} (hash, created_at) VALUES (?, ?)`);
      for (const migration of pending) {
        for (const statement of migration.sql) {
          if (statement.trim()) sqlite.exec(statement);
        }
        insert.run(migration.hash, migration.folderMillis);
      }
      return pending;
    })
    .immediate();
  return status(
    sqlite,
    applied.map((m) => m.tag),
  );
}

export function status(sqlite: Database, newlyApplied: string[] = []): SchemaStatus {
  return schemaStatus(appliedMillis(sqlite), MIGRATIONS, newlyApplied);
}

/**
 * The schema status without writing anything (a read-only connection may ask): the migrations table
 * is read only when it exists, and the migrations this binary would still apply are listed.
 */
export function readSchemaStatus(sqlite: Database): SchemaStatus & { pending: string[]; tooNew: boolean } {
  const exists = sqlite.query(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '${TABLE}'`).get();
  const applied = exists
    ? (
        sqlite.query(`SELECT created_at FROM ${TABLE} ORDER BY created_at`).all() as { created_at: number }[]
      ).map((r) => Number(r.created_at))
    : [];
  const base = schemaStatus(applied, MIGRATIONS, []);
  try {
    return { ...base, pending: pendingMigrations(applied, MIGRATIONS).map((m) => m.tag), tooNew: false };
  } catch (error) {
    if (error instanceof SchemaTooNewError) return { ...base, pending: [], tooNew: true };
    throw error;
  }
}
