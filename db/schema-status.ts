import type { EmbeddedMigration } from "./migrations.macro.ts";

/**
 * Where a database stands against the migrations this binary carries, for both runners
 * (db/sqlite/migrate.ts, db/pg/migrate.ts).
 */
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
