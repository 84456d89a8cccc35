import type { Database, Statement } from "bun:sqlite";
import { BufferedEventSink, type WriteBehindOptions } from "../event-sink.ts";
import type { CommandEvent } from "../events.ts";
import { EVENT_INSERT, insertEvent } from "./event-insert.ts";
import type { SqliteDataStore } from "./sqlite-data-store.ts";

/**
 * Where a serving instance hands its batches of events (the database worker, db/sqlite/database-worker.ts):
 * stored within its own bound, or at once with `now`, when the promise settles once they are.
 */
export interface EventBatchWriter {
  writeEvents(events: CommandEvent[], now: boolean): Promise<void> | undefined;
}

/**
 * Analytics events written behind: buffered and stored in one transaction through a held prepared
 * statement, at most `maxDelayMs` after the first of them or as soon as `maxRows` are waiting. An
 * INSERT per request through the query builder cost ~60 µs and, every ~220 rows, a WAL checkpoint on
 * the event loop; a batched row costs a few µs. A serving instance hands the batches to the database
 * worker instead (`handOverTo`), which stores them off the event loop. The trade-off: a crash loses at
 * most the last unwritten batch of analytics events. Nothing else (keys, roles, settings, sessions,
 * overlay state, the audit log) is written this way.
 */
export class WriteBehindEventSink extends BufferedEventSink {
  readonly #insert: Statement;
  readonly #writeAll: (rows: CommandEvent[]) => void;
  readonly #store: Pick<SqliteDataStore, "whenIdle">;
  #writer: EventBatchWriter | null = null;

  constructor(sqlite: Database, store: Pick<SqliteDataStore, "whenIdle">, options: WriteBehindOptions = {}) {
    super(options);
    this.#store = store;
    this.#insert = sqlite.prepare(EVENT_INSERT);
    this.#writeAll = sqlite.transaction((rows: CommandEvent[]) => {
      for (const row of rows) this.#write(row);
    });
  }

  /**
   * From now on, batches go to `writer` (a serving instance's database worker); `null` takes them back
   * once everything handed over is stored, so the writer can stop.
   */
  async handOverTo(writer: EventBatchWriter | null): Promise<void> {
    await this.flush();
    this.#writer = writer;
  }

  override flush(): Promise<void> {
    const writer = this.#writer;
    if (writer !== null) return writer.writeEvents(this.take(), true) ?? Promise.resolve();
    if (this.waiting === 0) {
      this.take();
      return Promise.resolve();
    }
    // A transaction of the store is open on this connection: these rows wait for its end, not join it.
    const idle = this.#store.whenIdle();
    if (idle) return idle.then(() => this.flush());
    this.#writeRows(this.take());
    return Promise.resolve();
  }

  protected override full(): void {
    this.#handOver();
  }

  protected override due(): void {
    this.#handOver();
  }

  /** The waiting events to the writer, stored within its bound (no acknowledgement to wait for). */
  #handOver(): void {
    const writer = this.#writer;
    if (writer === null) {
      void this.flush();
      return;
    }
    const rows = this.take();
    if (rows.length > 0) writer.writeEvents(rows, false);
  }

  #writeRows(rows: CommandEvent[]): void {
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
      if (dropped > 0) this.onDropped(dropped, lastError);
    }
  }

  #write(row: CommandEvent): void {
    insertEvent(this.#insert, row);
  }
}
