import { Database } from "bun:sqlite";
import { chmodSync, statSync } from "node:fs";
import { drizzle } from "drizzle-orm/bun-sqlite";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import * as schema from "./schema.ts";

/** A database or a transaction on it: queries in `db/` accept either. */
export type Db = BaseSQLiteDatabase<"sync", void, typeof schema>;

export interface DatabaseHandle {
  sqlite: Database;
  db: Db;
  path: string;
  /**
   * Serving: SQLite's automatic WAL checkpoint would run inside whichever write crosses the threshold,
   * on the event loop, for milliseconds (the p99 of the bot path). A serving connection turns it off
   * and checkpoints from its idle timer instead (`checkpoint`).
   */
  checkpointWhenIdle(): void;
  /** Copies what it can of the WAL into the database without waiting for readers (PASSIVE). */
  checkpoint(): void;
  /** The size of the WAL file now, bytes (0 when there is none). */
  walBytes(): number;
  close(): void;
}

export class DatabaseOpenError extends Error {}

/** SQLite's answers that mean "another connection holds the file now": worth waiting and trying again. */
const BUSY_CODES = /^SQLITE_(BUSY|LOCKED|PROTOCOL)/;

/**
 * Whether an error (or what caused it) is SQLite saying the file is busy: locked by another writer
 * beyond busy_timeout, or SQLITE_PROTOCOL, which busy_timeout does not cover (another connection was
 * opening or recovering the WAL index at that moment).
 */
export function isDatabaseBusy(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && BUSY_CODES.test(code)) return true;
  }
  return false;
}

/**
 * A file that is not SQLite's is refused in words a person can act on. SQLite itself finds out, at the
 * first read of the header (the WAL switch): this process must never open and close a descriptor of
 * the database file of its own, because closing any descriptor of a file drops every POSIX lock the
 * process holds on it, SQLite's included (another connection then believes it is alone, resets the
 * WAL index under the others and loses their commits).
 */
function notADatabase(path: string, error: unknown): DatabaseOpenError | null {
  if ((error as { code?: string }).code !== "SQLITE_NOTADB") return null;
  return new DatabaseOpenError(
    `${path} is not an SQLite database; move it away or point --data-dir at another folder`,
  );
}

/**
 * Switching a fresh file to WAL needs it to itself for a moment, and SQLite answers "database is
 * locked" at once, without waiting, while another process (a second instance starting at the same
 * moment) opens or migrates it. Retried for about 10 s (an attempt may itself wait out busy_timeout
 * while the other holds the file exclusively).
 */
function switchToWal(sqlite: Database): void {
  const deadline = performance.now() + 10_000;
  for (;;) {
    try {
      sqlite.exec("PRAGMA journal_mode = WAL");
      return;
    } catch (error) {
      if (!isDatabaseBusy(error) || performance.now() > deadline) throw error;
      Bun.sleepSync(10 + Math.random() * 20);
    }
  }
}

/**
 * Opens the database with the pragmas every connection needs. busy_timeout comes first so that the
 * WAL switch itself waits for a concurrent writer (the CLI and the server share the file).
 */
export interface OpenOptions {
  readonly?: boolean;
  /** How long a statement waits for another connection's lock before SQLITE_BUSY (default 10 s). */
  busyTimeoutMs?: number;
}

export function openDatabase(path: string, options: OpenOptions = {}): DatabaseHandle {
  let sqlite: Database | null = null;
  try {
    sqlite = new Database(path, options.readonly ? { readonly: true } : { create: true, readwrite: true });
    sqlite.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.round(options.busyTimeoutMs ?? 10_000))}`);
    // Reads the header: a file that is not a database says so here (notADatabase).
    sqlite.exec("PRAGMA schema_version");
    if (!options.readonly) switchToWal(sqlite);
    sqlite.exec("PRAGMA synchronous = NORMAL");
    sqlite.exec("PRAGMA foreign_keys = ON");
    sqlite.exec("PRAGMA temp_store = MEMORY");
  } catch (error) {
    sqlite?.close();
    throw (
      notADatabase(path, error) ??
      new DatabaseOpenError(`cannot open database ${path}: ${(error as Error).message}`, { cause: error })
    );
  }
  if (!options.readonly) restrictToOwner(path);
  const db = drizzle({ client: sqlite, schema });
  let closed = false;
  let checkpoint: (() => void) | null = null;
  return {
    sqlite,
    db,
    path,
    checkpointWhenIdle() {
      sqlite.exec("PRAGMA wal_autocheckpoint = 0");
      // After a checkpoint the WAL starts over; this shrinks the file back, so its size tells how
      // much is waiting (walBytes).
      sqlite.exec("PRAGMA journal_size_limit = 4194304");
    },
    walBytes() {
      try {
        return statSync(`${path}-wal`).size;
      } catch {
        return 0;
      }
    },
    checkpoint() {
      checkpoint ??= (
        (statement) => () =>
          statement.run()
      )(sqlite.prepare("PRAGMA wal_checkpoint(PASSIVE)"));
      checkpoint();
    },
    close() {
      if (closed) return;
      closed = true;
      sqlite.close();
    },
  };
}

/** The database holds every account's data: readable by its owner only, whatever the folder allows. */
function restrictToOwner(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      chmodSync(file, 0o600);
    } catch {
      // -wal/-shm appear with the first write; SQLite gives them the database file's mode then
    }
  }
}

/**
 * A reader of data_version, which increases whenever another connection (the CLI, another server)
 * commits to the file; one held statement, since it is checked on every request.
 */
export function dataVersionReader(sqlite: Database): () => number {
  const statement = sqlite.prepare<{ data_version: number }, []>("PRAGMA data_version");
  return () => statement.get()!.data_version;
}

/**
 * The counter that every write to cached tables bumps (migration 0002, triggers): accounts, keys,
 * overlay tokens, Twitch tokens, command and chat settings. Analytics events and the like leave it.
 */
export function cacheChangesReader(sqlite: Database): () => number {
  const statement = sqlite.prepare<{ n: number }, []>("SELECT n FROM cache_changes WHERE id = 1");
  return () => statement.get()?.n ?? 0;
}
