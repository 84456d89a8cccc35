import type { Database } from "bun:sqlite";
import { embeddedMigrations } from "./migrations.macro.ts" with { type: "macro" };
import type { EmbeddedMigration } from "./migrations.macro.ts";

/** Drizzle's own bookkeeping table, so drizzle-kit and this runner agree on what is applied. */
const TABLE = "__drizzle_migrations";

export interface SchemaStatus {
  /** Number of migrations applied to the database. */
  applied: number;
  /** Number of migrations this binary knows. */
  known: number;
  /** Tag of the newest applied migration, or null on an empty database. */
  latestTag: string | null;
  /** Migrations applied by this call. */
  newlyApplied: string[];
}

/** The database holds a migration this binary does not know: it was written by a newer cuebot. */
export class SchemaTooNewError extends Error {
  constructor() {
    super(
      "the database was written by a newer cuebot (its schema is newer than this binary); upgrade cuebot or restore a backup",
    );
  }
}

/**
 * The migrations a database lacks, given the `created_at` of those it has (ascending). Refuses rather
 * than guesses when the database is newer than the binary. Shared by the SQLite and PostgreSQL runners.
 */
export function pendingMigrations(applied: number[], known: EmbeddedMigration[]): EmbeddedMigration[] {
  const newestApplied = applied.at(-1) ?? 0;
  const newestKnown = known.at(-1)?.folderMillis ?? 0;
  if (newestApplied > newestKnown) throw new SchemaTooNewError();
  return known.filter((m) => m.folderMillis > newestApplied);
}

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

/** A SchemaStatus from the `created_at` of the applied migrations (ascending) and the known ones. */
export function schemaStatus(
  applied: number[],
  known: EmbeddedMigration[],
  newlyApplied: string[],
): SchemaStatus {
  const newest = applied.at(-1);
  return {
    applied: applied.length,
    known: known.length,
    latestTag: known.find((m) => m.folderMillis === newest)?.tag ?? null,
    newlyApplied,
  };
}
