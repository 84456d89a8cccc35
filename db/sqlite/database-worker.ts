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
 *   12–14 ms with it, 6–7 ms without). Here a PASSIVE checkpoint runs a few milliseconds after a
 *   write (this thread's own, or the event loop's: `wrote`), at most once per CHECKPOINT_INTERVAL_MS
 *   while writes go on, and not at all while nothing is written (an idle server's thread sleeps: a
 *   timer every 10 ms woke it 100 times a second for nothing). It never waits for and never blocks a
 *   writer or a reader, and once the WAL is copied to its end the next write starts it over (and
 *   `journal_size_limit` shrinks it back). A writer that never pauses could outrun it; the server's
 *   timer then checkpoints past a size on the event loop while writes go on (listen.ts).
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
  /** How soon after a write the worker checkpoints, ms. */
  intervalMs?: number;
  /** Told when a checkpoint or a note of a key's use failed (the worker goes on). */
  onError?: (message: string) => void;
  /** Told whenever work is handed over (events, a note of a key's use): the WAL is about to grow. */
  onHandedOver?: () => void;
  /** Told about events the worker could not store (their account was deleted meanwhile, the disk is full). */
  onDropped?: (count: number, error: string) => void;
  /**
   * Told once when the worker cannot do its work at all (it could not open the database, or its
   * thread died): whoever handed it work takes that back. Waiting flushes are answered.
   */
  onFailed?: (reason: string) => void;
}

/**
 * How soon after a write the worker checkpoints, and so how often while writes go on. Short, so that
 * a checkpoint usually finishes between two batches of writes: only a WAL copied to the end starts
 * over at the next write. Measured with 512-row batches every 15 ms: every 5–20 ms keeps the WAL at
 * 1–6 MB, every 250 ms let it reach 74 MB.
 */
export const CHECKPOINT_INTERVAL_MS = 10;

export class DatabaseWorker implements EventBatchWriter, CredentialTouchWriter {
  /** The thread, once something needed it (see `#thread`); null before. */
  #worker: Worker | null = null;
  readonly #databasePath: string;
  readonly #started: Promise<void>;
  readonly #resolveStarted: () => void;
  #stopped: Promise<void> | null = null;
  /** Acknowledgements awaited by `writeEvents(…, true)`, by number. */
  readonly #acks = new Map<number, () => void>();
  #nextAck = 0;
  readonly #onError: (message: string) => void;
  readonly #onDropped: (count: number, error: string) => void;
  readonly #onFailed: (reason: string) => void;
  readonly #onHandedOver: () => void;
  /** Set once the worker cannot do its work: nothing more is handed to it. */
  #failed: string | null = null;
  readonly #intervalMs: number;
  /** When `wrote` last told the thread (performance.now()). */
  #wroteNotedAt = Number.NEGATIVE_INFINITY;
  /** A note held back to the end of the span (see `wrote`). */
  #trailingNote: ReturnType<typeof setTimeout> | null = null;

  /**
   * The worker of the database at `databasePath`. Its thread (a JS runtime of its own: ~3.5 MB) starts
   * with the first work handed over or with `started`, not here: a server nobody uses never needs it,
   * and its writes (a login, a settings save) are checkpointed by the event loop meanwhile (listen.ts).
   * When this runtime cannot start a thread, onFailed is told then.
   */
  constructor(databasePath: string, options: DatabaseWorkerOptions = {}) {
    this.#databasePath = databasePath;
    this.#intervalMs = options.intervalMs ?? CHECKPOINT_INTERVAL_MS;
    this.#onError = options.onError ?? (() => {});
    this.#onDropped = options.onDropped ?? (() => {});
    this.#onFailed = options.onFailed ?? (() => {});
    this.#onHandedOver = options.onHandedOver ?? (() => {});
    let started: () => void = () => {};
    this.#started = new Promise<void>((resolve) => {
      started = resolve;
    });
    this.#resolveStarted = started;
  }

  /** Starts the thread (if it was not already) and resolves once it has opened the database, or failed to. */
  get started(): Promise<void> {
    this.#thread();
    return this.#started;
  }

  /** Whether the thread has been started and is doing its work. */
  get running(): boolean {
    return this.#worker !== null && this.#failed === null && this.#stopped === null;
  }

  #fail(reason: string): void {
    if (this.#failed !== null) return;
    this.#failed = reason;
    this.#resolveStarted();
    this.#answerWaiting();
    this.#onFailed(reason);
  }

  /** The thread, started at its first use; null once stopped or failed (or when it cannot start). */
  #thread(): Worker | null {
    if (this.#worker !== null || this.#failed !== null || this.#stopped !== null) {
      return this.#failed === null && this.#stopped === null ? this.#worker : null;
    }
    try {
      // Not ref'd: it must not keep a CLI command or a test alive; stop() ends it for a server.
      this.#worker = new Worker(new URL("./database-worker-thread.ts", import.meta.url), {
        ref: false,
        smol: true,
      });
    } catch (error) {
      this.#fail(`no worker thread could be started: ${error instanceof Error ? error.message : error}`);
      return null;
    }
    this.#worker.addEventListener("message", (event: MessageEvent) =>
      this.#receive(event.data as FromWorker),
    );
    this.#worker.addEventListener("error", (event) => this.#fail(`its thread stopped: ${event.message}`));
    this.#worker.postMessage({
      start: {
        path: this.#databasePath,
        intervalMs: this.#intervalMs,
        maxRows: WORKER_EVENT_MAX_ROWS,
        maxDelayMs: WORKER_EVENT_MAX_DELAY_MS,
        rowsPerTransaction: WORKER_EVENT_ROWS_PER_TRANSACTION,
      },
    } satisfies ToWorker);
    return this.#worker;
  }

  #receive(message: FromWorker): void {
    if ("started" in message) this.#resolveStarted();
    else if ("failed" in message) this.#fail(`it could not open the database: ${message.failed}`);
    else if ("checkpointError" in message)
      this.#onError(`a WAL checkpoint failed: ${message.checkpointError}`);
    else if ("touchError" in message) {
      this.#onError(`could not note when a key or token was last used: ${message.touchError}`);
    } else if ("dropped" in message) {
      if (message.dropped) this.#onDropped(message.dropped, message.error);
    } else if ("stored" in message) {
      this.#acks.get(message.stored)?.();
      this.#acks.delete(message.stored);
    }
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
    // A flush with nothing handed over yet has nothing to wait for: no thread is started for it.
    if (events.length === 0 && this.#worker === null && this.#stopped === null && this.#failed === null) {
      return now ? Promise.resolve() : undefined;
    }
    if (this.#thread() === null) {
      // Stopping, stopped or failed: nothing handed over now would be stored.
      if (events.length > 0) this.#onDropped(events.length, "the database worker is not running");
      return now ? Promise.resolve() : undefined;
    }
    this.#onHandedOver();
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
    if (this.#thread() === null) return;
    this.#onHandedOver();
    const table = kind === "api-key" ? "api_keys" : "overlay_tokens";
    this.#send({
      touch: { table, accountId: match.accountId, lookupHash: match.lookupHash, at },
    });
  }

  /**
   * The event loop's connection committed: the worker checkpoints within CHECKPOINT_INTERVAL_MS. Told
   * at most once per that span, so a burst of commits costs one message; a commit inside the span is
   * told at its end (the checkpoint the last note asked for may have run before it: dropping the note
   * left that write unsynced in the WAL until some later one, found by a review).
   */
  wrote(): void {
    // No thread yet: the event loop checkpoints its own writes until one starts (listen.ts).
    if (!this.running) return;
    const wait = this.#wroteNotedAt + this.#intervalMs - performance.now();
    if (wait <= 0) {
      this.#noteWrote();
      return;
    }
    this.#trailingNote ??= setTimeout(() => {
      this.#trailingNote = null;
      this.#noteWrote();
    }, wait);
  }

  #noteWrote(): void {
    this.#wroteNotedAt = performance.now();
    this.#send({ wrote: true });
  }

  #send(message: ToWorker): void {
    this.#worker?.postMessage(message);
  }

  /** Whoever waits for a flush is answered (the worker will not): on failure and at the end. */
  #answerWaiting(): void {
    for (const resolve of this.#acks.values()) resolve();
    this.#acks.clear();
  }

  /** Stores what was handed over, runs a last checkpoint, closes its connection and ends (at most ~2 s). */
  stop(): Promise<void> {
    this.#stopped ??= (async () => {
      const worker = this.#worker;
      if (this.#trailingNote) clearTimeout(this.#trailingNote);
      this.#trailingNote = null;
      // Never started: nothing was handed over, nothing to store or close.
      if (worker === null) return;
      const done = new Promise<void>((resolve) => {
        worker.addEventListener("message", (event: MessageEvent) => {
          if ("stopped" in (event.data as FromWorker)) resolve();
        });
      });
      this.#send({ stop: true });
      // A worker that failed has nothing to store and may not answer at all.
      if (this.#failed === null) await Promise.race([done, Bun.sleep(2_000)]);
      worker.terminate();
      // Anyone still waiting for an acknowledgement gets their answer: the worker is gone.
      this.#answerWaiting();
    })();
    return this.#stopped;
  }
}
