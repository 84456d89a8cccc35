import { join } from "node:path";
import {
  cacheChangesReader,
  type DatabaseHandle,
  dataVersionReader,
  type OpenOptions,
  openDatabase,
} from "../../db/sqlite/connection.ts";
import { migrate } from "../../db/sqlite/migrate.ts";
import { type OwnWriteObserver, SqliteDataStore } from "../../db/sqlite/sqlite-data-store.ts";
import { WriteBehindEventSink } from "../../db/sqlite/write-behind-event-sink.ts";
import type { Config } from "./config.ts";
import { DATABASE_FILE } from "./data-dir.ts";
import type { Logger } from "./log.ts";
import type { ChangeFeed, Storage } from "./storage.ts";

/**
 * Tells in-memory caches that another process (the CLI, another instance) changed what they hold, so
 * a role change or key rotation takes effect on the very next request (CONTRACT §3). Requests check
 * (http/external-changes.ts), and an idle timer checks for work no request triggers (listen.ts). The
 * check asks SQLite's data_version through a held statement (~1 µs). data_version moves only on other
 * connections' commits, so our own writes never raise a false alarm. Then the cache-changes counter
 * (bumped by triggers on the cached tables only) says whether the commit touched anything cached:
 * another instance's analytics events, or the database worker's (which commits every second under
 * load), flush nothing. This server's own writes move the counter too; it takes their share into
 * account inside their transaction (OwnWriteObserver): at its start it looks whether anyone else
 * changed the counter since (then it flushes, as check() would), and just before COMMIT it takes the
 * counter as its own, with no other writer able to commit in between.
 *
 * Nothing here reads SQLite's files behind its back: a mapping of the `-shm` file (the WAL index)
 * once replaced the pragma, and opening it closed a descriptor of that file, which dropped SQLite's
 * own locks on it; other processes then reset the index under this one (lost commits, SIGBUS).
 */
export class ExternalChanges implements ChangeFeed, OwnWriteObserver {
  readonly #listeners = new Set<() => void>();
  readonly #read: () => number;
  readonly #readChanges: () => number;
  #version: number;
  #changes: number;

  constructor(database: DatabaseHandle) {
    this.#read = dataVersionReader(database.sqlite);
    this.#readChanges = cacheChangesReader(database.sqlite);
    this.#version = this.#read();
    this.#changes = this.#readChanges();
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** This server's write began (the write lock is held): an outside change since the last look flushes now. */
  began(): void {
    const changes = this.#readChanges();
    if (changes === this.#changes) return;
    this.#changes = changes;
    for (const listener of this.#listeners) listener();
  }

  /** This server's write is about to commit: what the counter holds now is known, ours included. */
  committing(): void {
    this.#version = this.#read();
    this.#changes = this.#readChanges();
  }

  /** The command's commit moved the counter: a look finds it. */
  announced(): void {
    this.check();
  }

  /** Returns true when something changed since the last check (and notifies subscribers). */
  check(): boolean {
    const version = this.#read();
    if (version === this.#version) return false;
    this.#version = version;
    const changes = this.#readChanges();
    if (changes === this.#changes) return false;
    this.#changes = changes;
    for (const listener of this.#listeners) listener();
    return true;
  }
}

/** The embedded SQLite file in the data folder, migrated; WAL mode, one connection. */
export function openSqliteStorage(
  config: Config,
  log: Logger,
  options: Pick<OpenOptions, "busyTimeoutMs"> = {},
): Storage {
  const database = openDatabase(join(config.dataDir, DATABASE_FILE), options);
  try {
    const schema = migrate(database.sqlite);
    const db = new SqliteDataStore(database.sqlite, database.db);
    const events = new WriteBehindEventSink(database.sqlite, db, {
      onDropped: (count, error) => log.warn("command events could not be stored", { count, error }),
    });
    const externalChanges = new ExternalChanges(database);
    db.observeOwnWrites(externalChanges);
    return {
      db,
      database,
      schema,
      externalChanges,
      events,
      async close() {
        // Nothing else is queued on the connection: this writes at once.
        await events.flush();
        database.close();
      },
    };
  } catch (error) {
    database.close();
    throw error;
  }
}
