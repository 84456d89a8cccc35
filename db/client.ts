import { Database } from "bun:sqlite";
import { chmodSync, closeSync, existsSync, openSync, readSync, statSync } from "node:fs";
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

const SQLITE_MAGIC = "SQLite format 3\0";

/** A file that exists but does not start with SQLite's header is refused before SQLite touches it. */
function assertSqliteFile(path: string): void {
  if (!existsSync(path)) return;
  const fd = openSync(path, "r");
  try {
    const header = Buffer.alloc(16);
    const read = readSync(fd, header, 0, 16, 0);
    if (read === 0) return; // an empty file is a fresh database to SQLite
    if (header.toString("latin1", 0, read) !== SQLITE_MAGIC) {
      throw new DatabaseOpenError(
        `${path} is not an SQLite database; move it away or point --data-dir at another folder`,
      );
    }
  } finally {
    closeSync(fd);
  }
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
      if (!/locked|busy/i.test((error as Error).message) || performance.now() > deadline) throw error;
      Bun.sleepSync(10 + Math.random() * 20);
    }
  }
}

/**
 * Opens the database with the pragmas every connection needs. busy_timeout comes first so that the
 * WAL switch itself waits for a concurrent writer (the CLI and the server share the file).
 */
export function openDatabase(path: string, options: { readonly?: boolean } = {}): DatabaseHandle {
  assertSqliteFile(path);
  let sqlite: Database;
  try {
    sqlite = new Database(path, options.readonly ? { readonly: true } : { create: true, readwrite: true });
    sqlite.exec("PRAGMA busy_timeout = 10000");
    if (!options.readonly) switchToWal(sqlite);
    sqlite.exec("PRAGMA synchronous = NORMAL");
    sqlite.exec("PRAGMA foreign_keys = ON");
    sqlite.exec("PRAGMA temp_store = MEMORY");
  } catch (error) {
    throw new DatabaseOpenError(`cannot open database ${path}: ${(error as Error).message}`);
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
 * A nanosecond-cheap "did any connection commit?" signal: SQLite's WAL-index header, in the `-shm`
 * file every connection maps, changes with every commit (its change counter, last frame and checksum)
 * and with every WAL reset. Reading it from a shared mapping costs a few nanoseconds where
 * `PRAGMA data_version` costs ~2 µs, so the pragma runs only after the header moved. Returns null when
 * the file cannot be mapped (then callers ask the pragma every time).
 */
export function walCommitSignal(databasePath: string): (() => boolean) | null {
  let header: DataView;
  try {
    const shm = Bun.mmap(`${databasePath}-shm`);
    if (shm.byteLength < 48) return null;
    header = new DataView(shm.buffer, shm.byteOffset, 48);
  } catch {
    return null;
  }
  // iChange (8), mxFrame (16), nPage (20) and the header checksum (40, 44) of the first header copy.
  const read = () => [8, 16, 20, 40, 44].map((offset) => header.getUint32(offset, true));
  let last = read();
  return () => {
    const a = header.getUint32(8, true);
    const b = header.getUint32(16, true);
    const c = header.getUint32(40, true);
    const d = header.getUint32(44, true);
    if (a === last[0] && b === last[1] && c === last[3] && d === last[4]) return false;
    last = read();
    return true;
  };
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
