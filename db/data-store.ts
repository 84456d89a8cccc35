import type { Db } from "./sqlite/connection.ts";
import type * as sqliteTables from "./sqlite/schema.ts";

/**
 * The tables, as query code sees them: SQLite's (db/sqlite/schema.ts). PostgreSQL's twin
 * (db/pg/schema.ts) has the same names and row types, and db/pg/pg-data-store.ts hands it over in
 * their place.
 */
export type Tables = typeof sqliteTables;

/** A query built on `db` from `t`, not yet run. */
export type Build<Q> = (db: Db, t: Tables) => Q;

/** What SQLite's query builders offer to run them; PostgreSQL's are awaited instead. */
export interface Rows<T> {
  all(): T[];
}
export interface Statement {
  run(): unknown;
}

/**
 * The database, whichever it is: the embedded SQLite file or PostgreSQL. Query code in `db/` is
 * written once against Drizzle's builders, which are the same on both dialects for everything cuebot
 * asks (select, insert … on conflict, update, delete, returning), and handed to this to run; only
 * the few statements that differ (a date function) ask `dialect`.
 *
 * Every call answers a Promise. On SQLite the statement still runs at once, synchronously, when no
 * transaction is open; the Promise only carries the answer.
 */
export interface DataStore {
  readonly dialect: "sqlite" | "postgres";
  /** Every row the query returns. */
  all<T>(build: Build<Rows<T>>): Promise<T[]>;
  /** The first row, or undefined (give the query a `limit(1)` when more could match). */
  first<T>(build: Build<Rows<T>>): Promise<T | undefined>;
  /** Runs a statement that returns nothing. */
  run(build: Build<Statement>): Promise<void>;
  /**
   * Runs `fn` in one transaction: all its writes or none. The body only queries `tx`; it must not wait
   * for anything else (a network call), since on SQLite every other query waits for it to end.
   */
  transaction<T>(fn: (tx: DataStore) => Promise<T>): Promise<T>;
}

/**
 * Whether a write failed on a unique key another writer took first (PostgreSQL's 23505, SQLite's
 * "UNIQUE constraint failed"), looking through Drizzle's wrapper to the driver's error.
 */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if ((e as { errno?: unknown }).errno === "23505" || /UNIQUE constraint failed/.test(e.message))
      return true;
  }
  return false;
}
