import type { DataStore } from "./data-store.ts";
import type { CommandEvent } from "./events.ts";
import { StoreUnavailableError } from "./store-unavailable.ts";

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

/** The bound of the write-behind buffer (docs/api.md, "Analytics"): at most this many events or this long. */
export const EVENT_BUFFER_MAX_ROWS = 512;
export const EVENT_BUFFER_MAX_DELAY_MS = 20;

/**
 * The buffer both sinks share: events wait in memory until `maxRows` are waiting or `maxDelayMs` have
 * passed since the first, then the sink writes them (`flush`).
 */
export abstract class BufferedEventSink implements EventSink {
  #pending: CommandEvent[] = [];
  #timer: ReturnType<typeof setTimeout> | null = null;
  protected readonly maxRows: number;
  readonly #maxDelayMs: number;
  protected readonly onDropped: (count: number, error: unknown) => void;

  constructor(options: WriteBehindOptions) {
    this.maxRows = options.maxRows ?? EVENT_BUFFER_MAX_ROWS;
    this.#maxDelayMs = options.maxDelayMs ?? EVENT_BUFFER_MAX_DELAY_MS;
    this.onDropped = options.onDropped ?? (() => {});
  }

  record(event: CommandEvent): void {
    this.#pending.push(event);
    if (this.#pending.length >= this.maxRows) this.full();
    else this.#schedule();
  }

  abstract flush(): Promise<void>;

  /** `maxRows` are waiting: write them now. */
  protected full(): void {
    void this.flush();
  }

  /** `maxDelayMs` have passed since the first waiting event: write them now. */
  protected due(): void {
    void this.flush();
  }

  /** How many events wait. */
  protected get waiting(): number {
    return this.#pending.length;
  }

  /** The waiting events, handed over for writing (the buffer starts empty again). */
  protected take(): CommandEvent[] {
    if (this.#timer !== null) {
      clearTimeout(this.#timer);
      this.#timer = null;
    }
    const rows = this.#pending;
    this.#pending = [];
    return rows;
  }

  /** Drops the oldest waiting events beyond `limit` (reported), so the buffer stays bounded. */
  protected trimTo(limit: number): void {
    const excess = this.#pending.length - limit;
    if (excess > 0) {
      this.#pending.splice(0, excess);
      this.onDropped(
        excess,
        new Error("the database did not keep up; the oldest waiting events were dropped"),
      );
    }
  }

  #schedule(): void {
    if (this.#timer !== null) return;
    this.#timer = setTimeout(() => this.due(), this.#maxDelayMs);
    // A CLI command that recorded something must still exit; close() flushes what is left.
    this.#timer.unref?.();
  }

  /** Events still waiting after a write (they arrived meanwhile) are written within the same bound. */
  protected followUp(): void {
    if (this.#pending.length >= this.maxRows) this.full();
    else if (this.#pending.length > 0) this.#schedule();
  }
}

/** Most events the PostgreSQL sink holds while a batch is on its way: the rest are dropped, oldest first. */
export const EVENT_BUFFER_MAX_WAITING = 16 * EVENT_BUFFER_MAX_ROWS;

/**
 * Analytics events written behind through the store, for PostgreSQL (where every statement is a round
 * trip): buffered the same way, each batch one multi-row INSERT, one batch at a time. Events recorded
 * while a batch is on its way wait for it; past EVENT_BUFFER_MAX_WAITING (a slow or absent database)
 * the oldest are dropped and reported, so memory stays bounded. Batches that fail are dropped and
 * reported too: the same trade-off as on SQLite, and nothing else is written this way.
 */
export class BatchedEventSink extends BufferedEventSink {
  readonly #store: DataStore;
  /** The batch on its way, or null. */
  #writing: Promise<void> | null = null;

  constructor(store: DataStore, options: WriteBehindOptions = {}) {
    super(options);
    this.#store = store;
  }

  protected override full(): void {
    // A batch is on its way: the next goes when it has landed (followUp), within the bound.
    if (this.#writing) this.trimTo(EVENT_BUFFER_MAX_WAITING);
    else void this.flush();
  }

  override flush(): Promise<void> {
    if (this.#writing) return this.#writing.then(() => this.flush());
    const rows = this.take();
    if (rows.length === 0) return Promise.resolve();
    this.#writing = this.#write(rows).finally(() => {
      this.#writing = null;
      this.followUp();
    });
    return this.#writing;
  }

  async #write(rows: CommandEvent[]): Promise<void> {
    try {
      await this.#store.run((db, t) => db.insert(t.events).values(rows));
    } catch (error) {
      // The database is away: the batch is lost (asking row by row would only wait longer).
      if (error instanceof StoreUnavailableError) {
        this.onDropped(rows.length, error);
        return;
      }
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
      if (dropped > 0) this.onDropped(dropped, lastError);
    }
  }
}
