/**
 * The database worker's thread (see database-worker.ts for what it does and why): its own connection
 * to the database file, WAL checkpoints after writes, batches of analytics events and notes of when a
 * key was last used. Loaded as a worker (`new Worker(new URL(...))`), never imported; scripts/build.ts
 * builds it into the binary as an entry point of its own.
 */
import { Database, type Statement } from "bun:sqlite";
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import type { CommandEvent } from "../events.ts";
import type { FromWorker, ToWorker, WorkerStart, WorkerTouch } from "./database-worker-protocol.ts";
import { EVENT_INSERT, insertEvent } from "./event-insert.ts";

declare const self: Worker;

// Behind the event loop for the CPU: on Linux a thread has its own nice value (its id from
// /proc/thread-self). Where that is not possible, the worker simply runs at the server's priority.
try {
  setPriority(Number(readlinkSync("/proc/thread-self").split("/").pop()), 10);
} catch {}

const send = (message: FromWorker) => self.postMessage(message);
const errorText = (error: unknown): string =>
  String(error instanceof Error && error.message ? error.message : error);

let db: Database | null = null;
/** The checkpoint due after the latest writes; null when nothing was written since the last one. */
let checkpointTimer: ReturnType<typeof setTimeout> | null = null;
let checkpointDelayMs = 0;
let checkpointStatement: Statement | null = null;
/** The prepared INSERT of one event, and the transaction that stores a chunk of them; made at first use. */
let writer: { insert: Statement; writeAll: ReturnType<Database["transaction"]> } | null = null;
let pending: CommandEvent[] = [];
let writeTimer: ReturnType<typeof setTimeout> | null = null;
let maxRows = 1;
let maxDelayMs = 0;
let rowsPerTransaction = 1;
const touches = new Map<WorkerTouch["table"], Statement>();

function checkpoint(): void {
  if (checkpointTimer !== null) clearTimeout(checkpointTimer);
  checkpointTimer = null;
  try {
    const result = checkpointStatement?.get() as { log: number; checkpointed: number } | null;
    // Not copied to its end (a reader's snapshot still needs the older frames, or a write came in
    // meanwhile): again after the delay, as long as someone is using the file.
    if (result && result.checkpointed < result.log) checkpointSoon();
  } catch (error) {
    send({ checkpointError: errorText(error) });
  }
}

/**
 * Something was written (here, or on the event loop: `wrote`): a checkpoint follows within the delay.
 * Armed once per delay, not pushed back by every write, so writes that never pause are still
 * checkpointed every few ms; with nothing written, this thread sleeps (no timer at all).
 */
function checkpointSoon(): void {
  if (checkpointTimer === null && db !== null) checkpointTimer = setTimeout(checkpoint, checkpointDelayMs);
}

function prepareWriter(database: Database): NonNullable<typeof writer> {
  const insert = database.prepare(EVENT_INSERT);
  const writeAll = database.transaction((rows: CommandEvent[]) => {
    for (const row of rows) insertEvent(insert, row);
  });
  return { insert, writeAll };
}

function store(database: Database, rows: CommandEvent[]): void {
  if (writer === null) {
    try {
      writer = prepareWriter(database);
    } catch (error) {
      send({ dropped: rows.length, error: errorText(error) });
      return;
    }
  }
  const { insert, writeAll } = writer;
  // By account, then time: consecutive rows land on the same index pages, and each transaction holds
  // a range of accounts of its own, so every page is written once per batch however it is split.
  rows.sort((a, b) => a.accountId - b.accountId || a.at - b.at);
  let dropped = 0;
  let lastError: unknown = null;
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
        insertEvent(insert, row);
      } catch (error) {
        dropped++;
        lastError = error;
      }
    }
  }
  if (dropped > 0) send({ dropped, error: errorText(lastError) });
}

function drain(): void {
  if (writeTimer !== null) {
    clearTimeout(writeTimer);
    writeTimer = null;
  }
  const rows = pending;
  pending = [];
  if (rows.length > 0 && db !== null) {
    store(db, rows);
    checkpointSoon();
  }
}

function touch(database: Database, { table, accountId, lookupHash, at }: WorkerTouch): void {
  try {
    let statement = touches.get(table);
    if (statement === undefined) {
      // By its hash too: a key rotated while this note waited keeps its own "never used".
      statement = database.prepare(
        `UPDATE ${table} SET last_used_at = ? WHERE account_id = ? AND lookup_hash = ?`,
      );
      touches.set(table, statement);
    }
    statement.run(at, accountId, lookupHash);
    checkpointSoon();
  } catch (error) {
    send({ touchError: errorText(error) });
  }
}

function receiveEvents(batch: string, ack: number | undefined): void {
  const events = JSON.parse(batch) as CommandEvent[];
  if (db === null) {
    send({ dropped: events.length, error: "the database is not open" });
    if (ack !== undefined) send({ stored: ack });
    return;
  }
  for (const row of events) pending.push(row);
  // A database that keeps the worker waiting (a long lock, a full disk) must not grow memory without
  // end: past twice the batch bound, the oldest waiting events are dropped and reported.
  if (pending.length > 2 * maxRows) {
    const excess = pending.length - 2 * maxRows;
    pending.splice(0, excess);
    send({ dropped: excess, error: "the database did not keep up; the oldest waiting events were dropped" });
  }
  if (ack !== undefined || pending.length >= maxRows) drain();
  else if (writeTimer === null) writeTimer = setTimeout(drain, maxDelayMs);
  if (ack !== undefined) send({ stored: ack });
}

function start(options: WorkerStart): void {
  maxRows = options.maxRows;
  maxDelayMs = options.maxDelayMs;
  rowsPerTransaction = options.rowsPerTransaction;
  try {
    db = new Database(options.path, { readwrite: true });
    db.exec("PRAGMA busy_timeout = 10000");
    db.exec("PRAGMA synchronous = NORMAL");
    // As on the serving connection: an event of a deleted account is refused, not stored orphaned.
    db.exec("PRAGMA foreign_keys = ON");
    db.exec("PRAGMA wal_autocheckpoint = 0");
    // The connection that restarts the WAL cuts its file back; this one must too, as the server's does.
    db.exec("PRAGMA journal_size_limit = 4194304");
    checkpointStatement = db.prepare("PRAGMA wal_checkpoint(PASSIVE)");
  } catch (error) {
    db = null;
    send({ failed: errorText(error) });
    return;
  }
  checkpointDelayMs = options.intervalMs;
  // Whatever the server wrote before this thread started (migrations, a login) is checkpointed too.
  checkpointSoon();
  send({ started: true });
}

function stop(): void {
  if (db !== null) {
    drain();
    checkpoint();
    db.close();
  }
  send({ stopped: true });
}

self.onmessage = (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  if ("touch" in message) {
    if (db !== null) touch(db, message.touch);
  } else if ("events" in message) receiveEvents(message.events, message.ack);
  else if ("wrote" in message) checkpointSoon();
  else if ("start" in message) start(message.start);
  else if ("stop" in message) stop();
};
