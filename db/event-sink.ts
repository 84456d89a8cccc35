import type { Database, Statement } from "bun:sqlite";
import type { CommandEvent } from "./events.ts";
import type { DataStore, SqliteStore } from "./store.ts";

/**
 * Where command calls are recorded for analytics and the activity feed. Narrow on purpose: a shared
 * store can stand behind it later without touching the features that record.
 */
export interface EventSink {
  /** Records one call; it is stored within the sink's bound (see WriteBehindEventSink). */
  record(event: CommandEvent): void;
  /**
   * Stores everything recorded so far: before reading events, deleting an account, closing. Settles
   * once it is stored (on SQLite, at once unless a transaction is open).
   */
  flush(): Promise<void>;
}

export interface WriteBehindOptions {
  /** Most events held before they are written at once. */
  maxRows?: number;
  /** Longest an event waits before it is written, ms. */
  maxDelayMs?: number;
  /** Told about events that could not be stored (the account was deleted meanwhile, the disk is full). */
  onDropped?: (count: number, error: unknown) => void;
}

/** The bound of the write-behind buffer (README, "Analytics"): at most this many events or this long. */
export const EVENT_BUFFER_MAX_ROWS = 512;
export const EVENT_BUFFER_MAX_DELAY_MS = 20;

/**
 * Analytics events written behind: buffered and stored in one transaction through a held prepared
 * statement, at most `maxDelayMs` after the first of them or as soon as `maxRows` are waiting. An
 * INSERT per request through the query builder cost ~60 µs and, every ~220 rows, a WAL checkpoint on
 * the event loop; a batched row costs a few µs. The trade-off: a crash loses at most the last
 * unwritten batch of analytics events. Nothing else (keys, roles, settings, sessions, overlay state,
 * the audit log) is written this way.
 */
export class WriteBehindEventSink implements EventSink {
  readonly #insert: Statement;
  readonly #writeAll: (rows: CommandEvent[]) => void;
  readonly #maxRows: number;
  readonly #maxDelayMs: number;
  readonly #onDropped: (count: number, error: unknown) => void;
  #pending: CommandEvent[] = [];
  #timer: ReturnType<typeof setTimeout> | null = null;

  readonly #store: Pick<SqliteStore, "whenIdle">;

  constructor(sqlite: Database, store: Pick<SqliteStore, "whenIdle">, options: WriteBehindOptions = {}) {
    this.#store = store;
    this.#insert = sqlite.prepare(
      "INSERT INTO events (account_id, at, command, caller, outcome, latency_ms) VALUES (?, ?, ?, ?, ?, ?)",
    );
    this.#writeAll = sqlite.transaction((rows: CommandEvent[]) => {
      for (const row of rows) this.#write(row);
    });
    this.#maxRows = options.maxRows ?? EVENT_BUFFER_MAX_ROWS;
    this.#maxDelayMs = options.maxDelayMs ?? EVENT_BUFFER_MAX_DELAY_MS;
    this.#onDropped = options.onDropped ?? (() => {});
  }

  record(event: CommandEvent): void {
    this.#pending.push(event);
    if (this.#pending.length >= this.#maxRows) void this.flush();
    else if (this.#timer === null) {
      this.#timer = setTimeout(() => void this.flush(), this.#maxDelayMs);
      // A CLI command that recorded something must still exit; close() flushes what is left.
      this.#timer.unref?.();
    }
  }

  flush(): Promise<void> {
    if (this.#timer !== null) {
      clearTimeout(this.#timer);
      this.#timer = null;
    }
    if (this.#pending.length === 0) return Promise.resolve();
    // A transaction of the store is open on this connection: these rows wait for its end, not join it.
    const idle = this.#store.whenIdle();
    if (idle) return idle.then(() => this.flush());
    this.#writePending();
    return Promise.resolve();
  }

  #writePending(): void {
    const rows = this.#pending;
    this.#pending = [];
    try {
      this.#writeAll(rows);
    } catch {
      // One bad row (its account deleted by the CLI meanwhile) must not cost the others: one by one.
      let dropped = 0;
      let lastError: unknown;
      for (const row of rows) {
        try {
          this.#write(row);
        } catch (error) {
          dropped++;
          lastError = error;
        }
      }
      if (dropped > 0) this.#onDropped(dropped, lastError);
    }
  }

  #write(row: CommandEvent): void {
    this.#insert.run(row.accountId, row.at, row.command, row.caller, row.outcome, row.latencyMs);
  }
}

/**
 * Analytics events written behind through the store, for PostgreSQL (where every statement is a round
 * trip): buffered like WriteBehindEventSink, each batch one multi-row INSERT, batches one after
 * another. While the database is away, batches that fail are dropped and reported rather than held
 * (the buffer stays bounded); the same trade-off as on SQLite, and nothing else is written this way.
 */
export class BatchedEventSink implements EventSink {
  readonly #store: DataStore;
  readonly #maxRows: number;
  readonly #maxDelayMs: number;
  readonly #onDropped: (count: number, error: unknown) => void;
  #pending: CommandEvent[] = [];
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** The batch being written, and those queued behind it. */
  #writing: Promise<void> = Promise.resolve();

  constructor(store: DataStore, options: WriteBehindOptions = {}) {
    this.#store = store;
    this.#maxRows = options.maxRows ?? EVENT_BUFFER_MAX_ROWS;
    this.#maxDelayMs = options.maxDelayMs ?? EVENT_BUFFER_MAX_DELAY_MS;
    this.#onDropped = options.onDropped ?? (() => {});
  }

  record(event: CommandEvent): void {
    this.#pending.push(event);
    if (this.#pending.length >= this.#maxRows) void this.flush();
    else if (this.#timer === null) {
      this.#timer = setTimeout(() => void this.flush(), this.#maxDelayMs);
      this.#timer.unref?.();
    }
  }

  flush(): Promise<void> {
    if (this.#timer !== null) {
      clearTimeout(this.#timer);
      this.#timer = null;
    }
    if (this.#pending.length > 0) {
      const rows = this.#pending;
      this.#pending = [];
      this.#writing = this.#writing.then(() => this.#write(rows));
    }
    return this.#writing;
  }

  async #write(rows: CommandEvent[]): Promise<void> {
    try {
      await this.#store.run((db, t) => db.insert(t.events).values(rows));
    } catch {
      // One bad row (its account deleted meanwhile) must not cost the others: one by one.
      let dropped = 0;
      let lastError: unknown;
      for (const row of rows) {
        try {
          await this.#store.run((db, t) => db.insert(t.events).values(row));
        } catch (error) {
          dropped++;
          lastError = error;
        }
      }
      if (dropped > 0) this.#onDropped(dropped, lastError);
    }
  }
}
