/**
 * The messages between the database worker's two sides: its owner on the event loop
 * (database-worker.ts) and the thread (database-worker-thread.ts). Types only: the thread's code is
 * loaded as a worker, never imported.
 */

export interface WorkerStart {
  /** The database file. */
  path: string;
  /** How soon after a write the thread checkpoints, ms (at most one checkpoint per this span). */
  intervalMs: number;
  /** Most events gathered before they are stored. */
  maxRows: number;
  /** Longest an event waits before it is stored, ms. */
  maxDelayMs: number;
  /** Most rows one transaction stores. */
  rowsPerTransaction: number;
}

/** A note of when a key or an overlay token was last used (UPDATE … SET last_used_at). */
export interface WorkerTouch {
  table: "api_keys" | "overlay_tokens";
  accountId: number;
  lookupHash: string;
  at: number;
}

/** To the thread: one of these at a time. */
export type ToWorker =
  | { start: WorkerStart }
  /** Events as one JSON string (CommandEvent[]); with `ack`, stored at once and acknowledged. */
  | { events: string; ack?: number }
  | { touch: WorkerTouch }
  /** The event loop's connection committed a write: the WAL has something to checkpoint. */
  | { wrote: true }
  | { stop: true };

/** From the thread. */
export type FromWorker =
  | { started: true }
  | { stopped: true }
  /** It could not open the database: it does nothing more. */
  | { failed: string }
  | { checkpointError: string }
  | { touchError: string }
  | { dropped: number; error: string }
  /** Everything handed over with this `ack` is stored (or was reported dropped). */
  | { stored: number };
