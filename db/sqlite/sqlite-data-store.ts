import type { Database } from "bun:sqlite";
import type { Build, DataStore, Rows, Statement } from "../data-store.ts";
import type { Db } from "./connection.ts";
import * as sqliteTables from "./schema.ts";

function settle<T>(run: () => T): Promise<T> {
  try {
    return Promise.resolve(run());
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Told about this connection's own writes, inside their transaction: right after it began (the write
 * lock is held from then on, so no other connection commits until it ends) and just before COMMIT.
 * ExternalChanges uses it to tell its own changes to cached tables from other processes' exactly.
 */
export interface OwnWriteObserver {
  began(): void;
  committing(): void;
}

/**
 * The embedded database. Statements run synchronously on the one connection. A transaction spans
 * microtasks (its body awaits each query), so while it is open every other query of this store waits
 * for it to end, rather than slip into it and share its fate on a rollback. With an observer
 * (`observeOwnWrites`), a lone write runs in a transaction of its own so the observer sees it too.
 */
export class SqliteDataStore implements DataStore {
  readonly dialect = "sqlite";
  /** Settles when the open transaction ends; null when none is open. */
  #open: Promise<void> | null = null;
  readonly #inside: DataStore;
  #observer: OwnWriteObserver | null = null;
  /** Told after each write of this store is committed (the database worker checkpoints then). */
  #committed: () => void = () => {};

  constructor(
    private readonly sqlite: Database,
    db: Db,
  ) {
    const direct = (fn: () => unknown) => settle(fn);
    this.#inside = {
      dialect: "sqlite",
      all: <T>(build: Build<Rows<T>>) => direct(() => build(db, sqliteTables).all()) as Promise<T[]>,
      first: <T>(build: Build<Rows<T>>) =>
        direct(() => build(db, sqliteTables).all()[0]) as Promise<T | undefined>,
      run: (build) => direct(() => void build(db, sqliteTables).run()) as Promise<void>,
      // Nested: part of the transaction already open.
      transaction: (fn) => fn(this.#inside),
    };
  }

  all<T>(build: Build<Rows<T>>): Promise<T[]> {
    return this.#open ? this.#afterOpen(() => this.all(build)) : this.#inside.all(build);
  }

  first<T>(build: Build<Rows<T>>): Promise<T | undefined> {
    return this.#open ? this.#afterOpen(() => this.first(build)) : this.#inside.first(build);
  }

  run(build: Build<Statement>): Promise<void> {
    if (this.#open) return this.#afterOpen(() => this.run(build));
    if (this.#observer === null) {
      const written = this.#inside.run(build);
      this.#committed();
      return written;
    }
    // Observed: the one statement in a transaction of its own, so the observer sees it begin and end.
    try {
      return this.#observed(() => this.#inside.run(build));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** From now on `listener` is told after every committed write of this store (one listener). */
  afterOwnWrites(listener: () => void): void {
    this.#committed = listener;
  }

  /** From now on every write of this store is reported to `observer` (see OwnWriteObserver). */
  observeOwnWrites(observer: OwnWriteObserver): void {
    this.#observer = observer;
  }

  async transaction<T>(fn: (tx: DataStore) => Promise<T>): Promise<T> {
    while (this.#open) await this.#open;
    let end = () => {};
    this.#open = new Promise<void>((resolve) => {
      end = resolve;
    });
    try {
      this.sqlite.run("BEGIN IMMEDIATE");
      try {
        this.#observer?.began();
        const result = await fn(this.#inside);
        this.#observer?.committing();
        this.sqlite.run("COMMIT");
        this.#committed();
        return result;
      } catch (error) {
        if (this.sqlite.inTransaction) this.sqlite.run("ROLLBACK");
        throw error;
      }
    } finally {
      this.#open = null;
      end();
    }
  }

  /**
   * Null when no transaction of this store is open, else a Promise that settles once it has ended:
   * writers that go to the connection directly (the event sink) wait for it rather than join it.
   */
  whenIdle(): Promise<void> | null {
    return this.#open;
  }

  /** Runs one synchronous write in a transaction the observer sees (the statement's promise settles at once). */
  #observed(write: () => Promise<void>): Promise<void> {
    const observer = this.#observer as OwnWriteObserver;
    this.sqlite.run("BEGIN IMMEDIATE");
    let written: Promise<void>;
    try {
      observer.began();
      written = write();
      observer.committing();
      this.sqlite.run("COMMIT");
      this.#committed();
    } catch (error) {
      if (this.sqlite.inTransaction) this.sqlite.run("ROLLBACK");
      throw error;
    }
    return written;
  }

  #afterOpen<T>(then: () => Promise<T>): Promise<T> {
    return (this.#open as Promise<void>).then(then);
  }
}
