import type { CredentialKind, CredentialMatch, CredentialTouchWriter } from "../credentials.ts";
import type { CommandEvent } from "../events.ts";
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
 * The worker's code is a string, loaded through a blob URL, so the single-file binary needs no second
 * entry point.
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

const WORKER_SOURCE = `
import { Database } from "bun:sqlite";
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
// Behind the event loop for the CPU: on Linux a thread has its own nice value (its id from
// /proc/thread-self). Where that is not possible, the worker simply runs at the server's priority.
try {
  setPriority(Number(readlinkSync("/proc/thread-self").split("/").pop()), 10);
} catch {}
let db = null;
let timer = null;
let checkpointStatement = null;
let insert = null;
let writeAll = null;
let pending = [];
let writeTimer = null;
let maxRows = 1;
let maxDelayMs = 0;
let rowsPerTransaction = 1;
const errorText = (error) => String(error && error.message ? error.message : error);
function checkpoint() {
  try {
    checkpointStatement.get();
  } catch (error) {
    postMessage({ checkpointError: errorText(error) });
  }
}
function prepareInsert() {
  insert = db.prepare(
    "INSERT INTO events (account_id, at, command, caller, outcome, latency_ms) VALUES (?, ?, ?, ?, ?, ?)",
  );
  writeAll = db.transaction((rows) => {
    for (const row of rows) insert.run(row.accountId, row.at, row.command, row.caller, row.outcome, row.latencyMs);
  });
}
function store(rows) {
  if (insert === null) {
    try {
      prepareInsert();
    } catch (error) {
      postMessage({ dropped: rows.length, error: errorText(error) });
      return;
    }
  }
  // By account, then time: consecutive rows land on the same index pages, and each transaction holds
  // a range of accounts of its own, so every page is written once per batch however it is split.
  rows.sort((a, b) => a.accountId - b.accountId || a.at - b.at);
  let dropped = 0;
  let lastError = null;
  for (let from = 0; from < rows.length; from += rowsPerTransaction) {
    // Between two transactions the lock is let go for a moment: a writer on the event loop that
    // waits for it (SQLite's busy handler retries after 1 ms, then 2 ms…) gets its turn here.
    if (from > 0) Bun.sleepSync(2);
    const chunk = rows.slice(from, from + rowsPerTransaction);
    try {
      // IMMEDIATE: the write lock from the start, waited for (busy_timeout) like every writer here.
      writeAll.immediate(chunk);
      continue;
    } catch {}
    // One bad row (its account deleted meanwhile) must not cost the others: one by one.
    for (const row of chunk) {
      try {
        insert.run(row.accountId, row.at, row.command, row.caller, row.outcome, row.latencyMs);
      } catch (error) {
        dropped++;
        lastError = error;
      }
    }
  }
  if (dropped > 0) postMessage({ dropped, error: errorText(lastError) });
}
function drain() {
  if (writeTimer !== null) {
    clearTimeout(writeTimer);
    writeTimer = null;
  }
  const rows = pending;
  pending = [];
  if (rows.length > 0) store(rows);
}
const touches = new Map();
function touch({ table, accountId, lookupHash, at }) {
  try {
    let statement = touches.get(table);
    if (statement === undefined) {
      // By its hash too: a key rotated while this note waited keeps its own "never used".
      statement = db.prepare(
        "UPDATE " + table + " SET last_used_at = ? WHERE account_id = ? AND lookup_hash = ?",
      );
      touches.set(table, statement);
    }
    statement.run(at, accountId, lookupHash);
  } catch (error) {
    postMessage({ touchError: errorText(error) });
  }
}
self.onmessage = (event) => {
  const message = event.data;
  if (message.touch !== undefined) {
    if (db !== null) touch(message.touch);
  } else if (message.events !== undefined) {
    const events = JSON.parse(message.events);
    if (db === null) {
      postMessage({ dropped: events.length, error: "the database is not open" });
      if (message.ack !== undefined) postMessage({ stored: message.ack });
      return;
    }
    for (const row of events) pending.push(row);
    // A database that keeps the worker waiting (a long lock, a full disk) must not grow memory without
    // end: past twice the batch bound, the oldest waiting events are dropped and reported.
    if (pending.length > 2 * maxRows) {
      const excess = pending.length - 2 * maxRows;
      pending.splice(0, excess);
      postMessage({ dropped: excess, error: "the database did not keep up; the oldest waiting events were dropped" });
    }
    if (message.ack !== undefined || pending.length >= maxRows) drain();
    else if (writeTimer === null) writeTimer = setTimeout(drain, maxDelayMs);
    if (message.ack !== undefined) postMessage({ stored: message.ack });
  } else if (message.start) {
    maxRows = message.start.maxRows;
    maxDelayMs = message.start.maxDelayMs;
    rowsPerTransaction = message.start.rowsPerTransaction;
    try {
      db = new Database(message.start.path, { readwrite: true });
      db.exec("PRAGMA busy_timeout = 10000");
      db.exec("PRAGMA synchronous = NORMAL");
      // As on the serving connection: an event of a deleted account is refused, not stored orphaned.
      db.exec("PRAGMA foreign_keys = ON");
      db.exec("PRAGMA wal_autocheckpoint = 0");
      checkpointStatement = db.prepare("PRAGMA wal_checkpoint(PASSIVE)");
    } catch (error) {
      db = null;
      postMessage({ failed: errorText(error) });
      return;
    }
    timer = setInterval(checkpoint, message.start.intervalMs);
    postMessage({ started: true });
  } else if (message.stop) {
    if (timer !== null) clearInterval(timer);
    if (db !== null) {
      drain();
      checkpoint();
      db.close();
    }
    postMessage({ stopped: true });
  }
};
`;

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

type WorkerMessage = {
  started?: true;
  stopped?: true;
  failed?: string;
  checkpointError?: string;
  touchError?: string;
  error?: string;
  dropped?: number;
  stored?: number;
};

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
    const url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "application/javascript" }));
    // Not ref'd: it must not keep a CLI command or a test alive; stop() ends it for a server.
    this.#worker = new Worker(url, { ref: false, smol: true });
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
      const message = event.data as WorkerMessage;
      if (message.started) {
        started();
        // The worker has loaded its code; the URL is no longer needed.
        URL.revokeObjectURL(url);
      }
      if (message.failed !== undefined) fail(`it could not open the database: ${message.failed}`);
      if (message.checkpointError !== undefined)
        onError(`a WAL checkpoint failed: ${message.checkpointError}`);
      if (message.touchError !== undefined) {
        onError(`could not note when a key or token was last used: ${message.touchError}`);
      }
      if (message.dropped) onDropped(message.dropped, message.error ?? "");
      if (message.stored !== undefined) {
        this.#acks.get(message.stored)?.();
        this.#acks.delete(message.stored);
      }
    });
    this.#worker.addEventListener("error", (event) => fail(`its thread stopped: ${event.message}`));
    this.#worker.postMessage({
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
      this.#worker.postMessage({ events: batch });
      return undefined;
    }
    const ack = this.#nextAck++;
    const stored = new Promise<void>((resolve) => this.#acks.set(ack, resolve));
    this.#worker.postMessage({ events: batch, ack });
    return stored;
  }

  /** Notes when a key or an overlay token was last used; written in order with everything handed over. */
  touch(kind: CredentialKind, match: Pick<CredentialMatch, "accountId" | "lookupHash">, at: number): void {
    if (this.#stopped !== null || this.#failed !== null) return;
    const table = kind === "api-key" ? "api_keys" : "overlay_tokens";
    this.#worker.postMessage({
      touch: { table, accountId: match.accountId, lookupHash: match.lookupHash, at },
    });
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
          if ((event.data as WorkerMessage).stopped) resolve();
        });
      });
      this.#worker.postMessage({ stop: true });
      // A worker that failed has nothing to store and may not answer at all.
      if (this.#failed === null) await Promise.race([done, Bun.sleep(2_000)]);
      this.#worker.terminate();
      // Anyone still waiting for an acknowledgement gets their answer: the worker is gone.
      this.#answerWaiting();
    })();
    return this.#stopped;
  }
}
