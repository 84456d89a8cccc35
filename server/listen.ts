import type { DatabaseHandle } from "../db/sqlite/connection.ts";
import { DatabaseWorker } from "../db/sqlite/database-worker.ts";
import { SqliteDataStore } from "../db/sqlite/sqlite-data-store.ts";
import { WriteBehindEventSink } from "../db/sqlite/write-behind-event-sink.ts";
import type { App } from "./app.ts";
import { BODY_CEILING_BYTES } from "./http/body-limit.ts";
import type { Context } from "./runtime.ts";

export interface RunningServer {
  /** `http://host:port` with the real bound port. */
  url: string;
  port: number;
  /** Stops accepting, lets in-flight requests finish (up to `graceMs`), then closes the context. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * WAL checkpoints run on a worker thread (DatabaseWorker), a few ms after each write. Past this size
 * the worker has not kept up (writes that never pause), and the server's timer checkpoints on the
 * event loop: between two of its own writes the only writer lets it copy the WAL to its end, so the
 * next write starts it over. With no worker, it also checkpoints whenever no request is in flight.
 */
const WAL_CHECKPOINT_BYTES = 32 * 1024 * 1024;

/**
 * How often the server's timer runs while it has work (DatabaseWatch). Requests check for commits by
 * other processes themselves (app.ts); the timer does what no request triggers: ending overlay
 * streams whose token the CLI rotated, when the CLI does not announce its changes.
 */
const IDLE_WORK_MS = 250;

export interface ListenOptions {
  /**
   * The admin commands announce their changes to this server (server/start.ts): it need not ask the
   * database for them on a timer.
   */
  changesAnnounced?: boolean;
}

/**
 * The server's one timer on the embedded database, armed only while there is something to look at:
 * while writes go on (and once after they stop), while no worker checkpoints, while requests are in
 * flight without one, and all the time only where nobody announces outside changes (`serve --demo`,
 * instances sharing a file through Redis). An idle server alone on its file has no timer here at all:
 * it used to wake 4 times a second for nothing.
 */
class DatabaseWatch {
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** Something was written since the last tick. */
  #wrote = false;
  #stopped = false;

  constructor(
    private readonly tick: () => void,
    /** Whether the timer must go on after a quiet tick. */
    private readonly keepGoing: () => boolean,
  ) {
    if (keepGoing()) this.#arm();
  }

  /** A write (here, or handed to the worker): the timer runs until a tick finds nothing new. */
  wrote(): void {
    this.#wrote = true;
    this.#arm();
  }

  /** What keepGoing() says changed (the worker failed): look again. */
  wake(): void {
    this.#arm();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #arm(): void {
    if (this.#timer !== null || this.#stopped) return;
    this.#timer = setTimeout(() => this.#run(), IDLE_WORK_MS);
  }

  #run(): void {
    this.#timer = null;
    const wrote = this.#wrote;
    this.#wrote = false;
    this.tick();
    if (wrote || this.keepGoing()) this.#arm();
  }
}

export class ListenError extends Error {}

function hostForUrl(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

/**
 * WAL checkpoints and analytics writes off the event loop, on a thread started at the first work
 * handed over. `watch` hears of that work, and of the worker's failure (then both go back to the loop).
 */
function startDatabaseWorker(ctx: Context, database: DatabaseHandle, watch: DatabaseWatch): DatabaseWorker {
  const events = ctx.events instanceof WriteBehindEventSink ? ctx.events : null;
  const worker = new DatabaseWorker(database.path, {
    onError: (message) => ctx.log.warn(`the database worker: ${message}`),
    onDropped: (count, error) => ctx.log.warn("command events could not be stored", { count, error }),
    onHandedOver: () => watch.wrote(),
    onFailed: (reason) => {
      ctx.log.warn(
        `the database worker stopped working (${reason}); analytics writes and WAL checkpoints run on the main thread`,
      );
      ctx.accounts.writeTouchesThrough(null);
      void events?.handOverTo(null);
      watch.wake();
    },
  });
  void events?.handOverTo(worker);
  ctx.accounts.writeTouchesThrough(worker);
  return worker;
}

/**
 * The embedded database's upkeep: the worker, and the timer that checkpoints when the worker cannot
 * (or falls behind) and looks for outside changes where nobody announces them. Null on PostgreSQL,
 * which checkpoints itself and pushes its changes (core/postgres-storage.ts).
 */
function watchDatabase(
  ctx: Context,
  server: { pendingRequests: number },
  changesAnnounced: boolean,
): { worker: DatabaseWorker | null; watch: DatabaseWatch } | null {
  const database = ctx.database;
  if (!database) return null;
  database.checkpointWhenIdle();
  let worker: DatabaseWorker | null = null;
  const withoutWorker = () => worker === null || worker.failed;
  const watch = new DatabaseWatch(
    () => {
      try {
        if (!changesAnnounced) ctx.externalChanges.check();
        // The worker's thread starts with the first analytics or key use; until then, or without
        // one, this loop checkpoints its own writes whenever no request is in flight.
        const idle = !worker?.running && server.pendingRequests === 0;
        if (idle || database.walBytes() > WAL_CHECKPOINT_BYTES) database.checkpoint();
      } catch (error) {
        ctx.log.warn("could not check the database for outside changes", { error });
      }
    },
    // Without a worker, analytics are written on the loop behind the store's back: keep looking. A
    // worker not started yet has nothing of its own: the writes this loop made arm the timer.
    () => !changesAnnounced || withoutWorker(),
  );
  worker = startDatabaseWorker(ctx, database, watch);
  watch.wake();
  if (ctx.db instanceof SqliteDataStore) {
    ctx.db.afterOwnWrites(() => {
      worker?.wrote();
      watch.wrote();
    });
  }
  return { worker, watch };
}

export function listen(ctx: Context, app: App, options: ListenOptions = {}): RunningServer {
  try {
    // The most Bun reads of an announced body (the body-limit layer caps those that are read at 64
    // KiB, 1 MiB for the import, announced or chunked); a larger announced one gets Bun's own empty 413.
    app.listen({
      hostname: ctx.config.host,
      port: ctx.config.port,
      maxRequestBodySize: BODY_CEILING_BYTES,
      // Elysia turns SO_REUSEPORT on: a second cuebot would then share the port silently and split
      // the traffic (and the sessions) with the first. A busy port must be an error.
      reusePort: false,
      // Bun's development mode renders its own error pages; every error here is ours to shape.
      development: false,
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === "EADDRINUSE" ? "the address is already in use" : (error as Error).message;
    throw new ListenError(`cannot listen on ${ctx.config.host}:${ctx.config.port}: ${reason}`);
  }
  const server = app.server;
  if (!server?.port) throw new ListenError("the server did not start");
  ctx.limits.clientIp.listeningOn(server);
  const port = server.port;
  ctx.publicAddress.listeningOn(port);

  const upkeep = watchDatabase(ctx, server, options.changesAnnounced === true);
  const worker = upkeep?.worker ?? null;

  let stopping: Promise<void> | null = null;
  return {
    url: `http://${hostForUrl(ctx.config.host)}:${port}`,
    port,
    stop(graceMs = 10_000) {
      stopping ??= (async () => {
        upkeep?.watch.stop();
        // Overlay streams never end by themselves; close them so in-flight requests can drain.
        ctx.overlays.shutdown();
        ctx.alerts.shutdown();
        const graceful = server.stop(false);
        const timedOut = await Promise.race([
          graceful.then(() => false),
          Bun.sleep(graceMs).then(() => true),
        ]);
        if (timedOut) {
          ctx.log.warn("in-flight requests did not finish in time; closing them");
          await server.stop(true);
        }
        if (worker) {
          // What the worker holds is stored before it stops; the last events go through the connection.
          ctx.accounts.writeTouchesThrough(null);
          if (ctx.events instanceof WriteBehindEventSink) await ctx.events.handOverTo(null);
          await worker.stop();
        }
        await ctx.close();
      })();
      return stopping;
    },
  };
}
