import type { SQL } from "bun";
import { embeddedMigrations } from "../migrations.macro.ts" with { type: "macro" };
import type { EmbeddedMigration } from "../migrations.macro.ts";
import { pendingMigrations, type SchemaStatus, SchemaTooNewError, schemaStatus } from "../schema-status.ts";

/** Drizzle's own bookkeeping table and schema, so drizzle-kit and this runner agree on what is applied. */
const TABLE = "drizzle.__drizzle_migrations";

/**
 * The advisory-lock key every cuebot migrator takes ("cueb" in ASCII). Several instances starting on
 * one fresh database would otherwise race to create the same tables (scale-out.md §2: 2 of 3 failed).
 */
export const MIGRATION_LOCK_KEY = 0x63756562;

const MIGRATIONS: EmbeddedMigration[] = embeddedMigrations("migrations-pg");

/** The SQL client or a transaction of it: anything that runs tagged queries. */
type Runner = Pick<SQL, "unsafe">;

async function appliedMillis(runner: Runner): Promise<number[]> {
  const rows: { created_at: string | number }[] = await runner.unsafe(
    `SELECT created_at FROM ${TABLE} ORDER BY created_at`,
  );
  return rows.map((r) => Number(r.created_at));
}

async function ensureTable(runner: Runner): Promise<void> {
  await runner.unsafe("CREATE SCHEMA IF NOT EXISTS drizzle");
  await runner.unsafe(
    `CREATE TABLE IF NOT EXISTS ${TABLE} (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)`,
  );
}

/**
 * Applies every embedded PostgreSQL migration the database lacks, in one transaction that first takes
 * a transaction-scoped advisory lock: concurrent starts queue behind the first, then find nothing left
 * to do. Like the SQLite runner (db/sqlite/migrate.ts), a database newer than this binary is refused.
 */
export async function migratePg(sql: SQL, known: EmbeddedMigration[] = MIGRATIONS): Promise<SchemaStatus> {
  return await sql.begin(async (tx) => {
    await tx.unsafe(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
    await ensureTable(tx);
    const pending = pendingMigrations(await appliedMillis(tx), known);
    for (const migration of pending) {
      for (const statement of migration.sql) {
        if (statement.trim()) await tx.unsafe(statement);
      }
      await tx.unsafe(`INSERT INTO ${TABLE} (hash, created_at) VALUES ($1, $2)`, [
        migration.hash,
        migration.folderMillis,
      ]);
    }
    return schemaStatus(
      await appliedMillis(tx),
      known,
      pending.map((m) => m.tag),
    );
  });
}

/**
 * What is applied, without changing anything (an empty database reports 0 applied), with what is still
 * to apply or whether a newer cuebot wrote the database, as the SQLite runner's readSchemaStatus.
 */
export async function statusPg(
  sql: SQL,
  known: EmbeddedMigration[] = MIGRATIONS,
): Promise<SchemaStatus & { pending: string[]; tooNew: boolean }> {
  const [exists] = await sql.unsafe(`SELECT to_regclass('${TABLE}') IS NOT NULL AS present`);
  const applied = exists?.present ? await appliedMillis(sql) : [];
  const base = schemaStatus(applied, known, []);
  try {
    return { ...base, pending: pendingMigrations(applied, known).map((m) => m.tag), tooNew: false };
  } catch (error) {
    if (error instanceof SchemaTooNewError) return { ...base, pending: [], tooNew: true };
    throw error;
  }
}
