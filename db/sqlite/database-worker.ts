import type { CredentialKind, CredentialMatch, CredentialTouchWriter } from "../credentials.ts";
import type { CommandEvent } from "../events.ts";
import type { FromWorker, ToWorker } from "./database-worker-protocol.ts";
import type { EventBatchWriter } from "./write-behind-event-sink.ts";

/**
 * The embedded database's background work, on a thread of its own with its own connection to the
 * same file, so that none of it runs on the event loop while requests wait:
 *
 * - **WAL checkpoints.** A serving connection turns SQLite's automatic checkpoint off (it would run
 *   inside whichever write crosses the threshold); run on the event loop instead, a checkpoint under
 *   load copied megabytes and synced the file while every request waited (measured: bot-path p99
 *   12–14 ms with it, 6–7 ms without). Here a PASSIVE checkpoint runs every few milliseconds: it never
 *   waits for and never blocks a writer or a reader, and once the WAL is copied to its end the next
 *   write starts it over (and `journal_size_limit` shrinks it back). A writer that never pauses could
 *   outrun it; the server's idle timer then checkpoints past a size on the event loop (listen.ts).
 * - **When keys were last used.** A key's `last_used_at` is written once a minute per key; on the event
 *   loop that UPDATE waited for the lock whenever this thread was storing a batch (SQLite's busy
 *   handler sleeps whole milliseconds), and every request in flight waited with it.
 * - **Analytics events.** The write-behind sink hands its batches over (`writeEvents`). Stored on the
 *   event loop, a row cost ~5 µs of every bot command (the index on account and time takes a page per
 *   account in every commit, and the commit writes them to the WAL). Here batches gather up to
 *   WORKER_EVENT_MAX_ROWS or WORKER_EVENT_MAX_DELAY_MS and are stored sorted by account, which
 *   touches each page once per batch: fewer, larger writes, off the request path.
 *
 * The thread's code is database-worker-thread.ts, a module of its own (scripts/build.ts makes it an
 * entry point of the single-file binary, as Bun asks of workers there).
 */

/** Most events the worker gathers before it stores them. */
export const WORKER_EVENT_MAX_ROWS = 65_536;
/**
 * Longest an event handed to the worker waits before it is stored, ms. Long on purpose: with many
 * active channels a row costs its index page, so the more rows one batch holds, the fewer pages per
 * row it writes (measured, 6,000 channels: 512-row batches ~16 µs a row with the checkpoint, 4,096
 * ~9 µs, 40,000 ~2 µs). On two cores that CPU is taken from the requests.
 */
export const WORKER_EVENT_MAX_DELAY_MS = 1_000;
/**
 * Most rows one transaction stores (a few ms of the write lock): a write on the event loop (a login, a
 * settings save) waits for at most one of them, not the whole batch.
 */
export const WORKER_EVENT_ROWS_PER_TRANSACTION = 4_096;

export interface DatabaseWorkerOptions {
  /** How often the worker checkpoints, ms. */
  intervalMs?: number;
  /** Told when a checkpoint or a note of a key's use failed (the worker goes on). */
  onError?: (message: string) => void;
  /** Told about events the worker could not store (their account was deleted meanwhile, the disk is full). */
  onDropped?: (count: number, error: string) => void;
  /**
   * Told once when the worker cannot do its work at all (it could not open the database, or its
   * thread died): whoever handed it work takes that back. Waiting flushes are answered.
   */
  onFailed?: (reason: string) => void;
}

/**
 * Often, so that a checkpoint usually finishes between two batches of writes: only a WAL copied to
 * the end starts over at the next write. Measured with 512-row batches every 15 ms: every 5–20 ms
 * keeps the WAL at 1–6 MB, every 250 ms let it reach 74 MB. A checkpoint with nothing to copy costs
 * microseconds, on the worker's thread.
 */
export const CHECKPOINT_INTERVAL_MS = 10;

export class DatabaseWorker implements EventBatchWriter, CredentialTouchWriter {
  readonly #worker: Worker;
  readonly #started: Promise<void>;
  #stopped: Promise<void> | null = null;
  /** Acknowledgements awaited by `writeEvents(…, true)`, by number. */
  readonly #acks = new Map<number, () => void>();
  #nextAck = 0;
  readonly #onDropped: (count: number, error: string) => void;
  /** Set once the worker cannot do its work: nothing more is handed to it. */
  #failed: string | null = null;

  /** Starts the worker; throws when this runtime cannot start one (callers then do the work themselves). */
  constructor(databasePath: string, options: DatabaseWorkerOptions = {}) {
    // Not ref'd: it must not keep a CLI command or a test alive; stop() ends it for a server.
    this.#worker = new Worker(new URL("./database-worker-thread.ts", import.meta.url), {
      ref: false,
      smol: true,
    });
    const onError = options.onError ?? (() => {});
    const onDropped = options.onDropped ?? (() => {});
    const onFailed = options.onFailed ?? (() => {});
    this.#onDropped = onDropped;
    let started: () => void = () => {};
    this.#started = new Promise<void>((resolve) => {
      started = resolve;
    });
    const fail = (reason: string) => {
      if (this.#failed !== null) return;
      this.#failed = reason;
      started();
      this.#answerWaiting();
      onFailed(reason);
    };
    this.#worker.addEventListener("message", (event: MessageEvent) => {
      const message = event.data as FromWorker;
      if ("started" in message) started();
      else if ("failed" in message) fail(`it could not open the database: ${message.failed}`);
      else if ("checkpointError" in message) onError(`a WAL checkpoint failed: ${message.checkpointError}`);
      else if ("touchError" in message) {
        onError(`could not note when a key or token was last used: ${message.touchError}`);
      } else if ("dropped" in message) {
        if (message.dropped) onDropped(message.dropped, message.error);
      } else if ("stored" in message) {
        this.#acks.get(message.stored)?.();
        this.#acks.delete(message.stored);
      }
    });
    this.#worker.addEventListener("error", (event) => fail(`its thread stopped: ${event.message}`));
    this.#send({
      start: {
        path: databasePath,
        intervalMs: options.intervalMs ?? CHECKPOINT_INTERVAL_MS,
        maxRows: WORKER_EVENT_MAX_ROWS,
        maxDelayMs: WORKER_EVENT_MAX_DELAY_MS,
        rowsPerTransaction: WORKER_EVENT_ROWS_PER_TRANSACTION,
      },
    });
  }

  /** Resolves once the worker has opened the database (or failed to: see `failed`). */
  get started(): Promise<void> {
    return this.#started;
  }

  /** Whether the worker cannot do its work (onFailed was told). */
  get failed(): boolean {
    return this.#failed !== null;
  }

  /**
   * Hands analytics events over. They are stored within the worker's bound, or at once with `now`:
   * then the promise settles once everything handed over so far is stored (or reported dropped).
   */
  writeEvents(events: CommandEvent[], now: boolean): Promise<void> | undefined {
    if (this.#stopped !== null || this.#failed !== null) {
      // Stopping, stopped or failed: nothing handed over now would be stored.
      if (events.length > 0) this.#onDropped(events.length, "the database worker is not running");
      return now ? Promise.resolve() : undefined;
    }
    // As one JSON string: a quarter of what cloning the objects costs this thread (0.1 vs 0.37 µs a row).
    const batch = JSON.stringify(events);
    if (!now) {
      this.#send({ events: batch });
      return undefined;
    }
    const ack = this.#nextAck++;
    const stored = new Promise<void>((resolve) => this.#acks.set(ack, resolve));
    this.#send({ events: batch, ack });
    return stored;
  }

  /** Notes when a key or an overlay token was last used; written in order with everything handed over. */
  touch(kind: CredentialKind, match: Pick<CredentialMatch, "accountId" | "lookupHash">, at: number): void {
    if (this.#stopped !== null || this.#failed !== null) return;
    const table = kind === "api-key" ? "api_keys" : "overlay_tokens";
    this.#send({
      touch: { table, accountId: match.accountId, lookupHash: match.lookupHash, at },
    });
  }

  #send(message: ToWorker): void {
    this.#worker.postMessage(message);
  }

  /** Whoever waits for a flush is answered (the worker will not): on failure and at the end. */
  #answerWaiting(): void {
    for (const resolve of this.#acks.values()) resolve();
    this.#acks.clear();
  }

  /** Stores what was handed over, runs a last checkpoint, closes its connection and ends (at most ~2 s). */
  stop(): Promise<void> {
    this.#stopped ??= (async () => {
      const done = new Promise<void>((resolve) => {
        this.#worker.addEventListener("message", (event: MessageEvent) => {
          if ("stopped" in (event.data as FromWorker)) resolve();
        });
      });
      this.#send({ stop: true });
      // A worker that failed has nothing to store and may not answer at all.
      if (this.#failed === null) await Promise.race([done, Bun.sleep(2_000)]);
      this.#worker.terminate();
      // Anyone still waiting for an acknowledgement gets their answer: the worker is gone.
      this.#answerWaiting();
    })();
    return this.#stopped;
  }
}
