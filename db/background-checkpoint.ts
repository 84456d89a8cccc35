/**
 * WAL checkpoints on a thread of their own. A serving connection turns SQLite's automatic checkpoint
 * off (it would run inside whichever write crosses the threshold); run on the event loop instead, a
 * checkpoint under load copied megabytes and synced the file while every request waited (measured:
 * bot-path p99 12–14 ms with it, 6–7 ms without). Here a worker thread with its own connection to the
 * same file runs a PASSIVE checkpoint every few milliseconds: it never waits for and never blocks a
 * writer or a reader, and once the WAL is copied to its end the next write starts it over (and
 * `journal_size_limit` shrinks it back). A writer that never pauses could outrun it; the server's
 * idle timer then checkpoints past a size on the event loop, as before (listen.ts).
 *
 * The worker's code is a string, loaded through a blob URL, so the single-file binary needs no second
 * entry point; it is small and does one thing.
 */

const WORKER_SOURCE = `
import { Database } from "bun:sqlite";
let db = null;
let timer = null;
function checkpoint() {
  try {
    db.prepare("PRAGMA wal_checkpoint(PASSIVE)").get();
  } catch (error) {
    postMessage({ error: String(error && error.message ? error.message : error) });
  }
}
self.onmessage = (event) => {
  const message = event.data;
  if (message.start) {
    try {
      db = new Database(message.start.path, { readwrite: true });
      db.exec("PRAGMA busy_timeout = 10000");
    } catch (error) {
      db = null;
      postMessage({ error: String(error && error.message ? error.message : error) });
      return;
    }
    timer = setInterval(checkpoint, message.start.intervalMs);
    postMessage({ started: true });
  } else if (message.stop) {
    if (timer !== null) clearInterval(timer);
    if (db !== null) {
      checkpoint();
      db.close();
    }
    postMessage({ stopped: true });
  }
};
`;

export interface BackgroundCheckpointOptions {
  /** How often the worker checkpoints, ms. */
  intervalMs?: number;
  /** Told when a checkpoint failed (the worker goes on trying). */
  onError?: (message: string) => void;
}

/**
 * Often, so that a checkpoint usually finishes between two batches of writes: only a WAL copied to
 * the end starts over at the next write. Measured with 512-row batches every 15 ms: every 5–20 ms
 * keeps the WAL at 1–6 MB, every 250 ms let it reach 74 MB. A checkpoint with nothing to copy costs
 * microseconds, on the worker's thread.
 */
export const CHECKPOINT_INTERVAL_MS = 10;

export class BackgroundCheckpoint {
  readonly #worker: Worker;
  readonly #started: Promise<void>;
  #stopped: Promise<void> | null = null;

  /** Starts the worker; throws when this runtime cannot start one (callers then checkpoint themselves). */
  constructor(databasePath: string, options: BackgroundCheckpointOptions = {}) {
    const url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "application/javascript" }));
    // Not ref'd: it must not keep a CLI command or a test alive; stop() ends it for a server.
    this.#worker = new Worker(url, { ref: false, smol: true });
    const onError = options.onError ?? (() => {});
    let started: () => void = () => {};
    this.#started = new Promise<void>((resolve) => {
      started = resolve;
    });
    this.#worker.addEventListener("message", (event: MessageEvent) => {
      const message = event.data as { started?: true; error?: string };
      if (message.started) {
        started();
        // The worker has loaded its code; the URL is no longer needed.
        URL.revokeObjectURL(url);
      }
      if (message.error) onError(message.error);
    });
    this.#worker.addEventListener("error", (event) => onError(event.message));
    this.#worker.postMessage({
      start: { path: databasePath, intervalMs: options.intervalMs ?? CHECKPOINT_INTERVAL_MS },
    });
  }

  /** Resolves once the worker has opened the database. */
  get started(): Promise<void> {
    return this.#started;
  }

  /** Runs a last checkpoint, closes the worker's connection and ends the thread (at most ~2 s). */
  stop(): Promise<void> {
    this.#stopped ??= (async () => {
      const done = new Promise<void>((resolve) => {
        this.#worker.addEventListener("message", (event: MessageEvent) => {
          if ((event.data as { stopped?: true }).stopped) resolve();
        });
      });
      this.#worker.postMessage({ stop: true });
      await Promise.race([done, Bun.sleep(2_000)]);
      this.#worker.terminate();
    })();
    return this.#stopped;
  }
}
