import type { DatabaseHandle } from "../db/sqlite/connection.ts";
import { DatabaseWorker } from "../db/sqlite/database-worker.ts";
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
 * WAL checkpoints run on a worker thread (DatabaseWorker). Past this size the worker has not kept
 * up (writes that never pause), and the idle timer checkpoints on the event loop: between two of its
 * own writes the only writer lets it copy the WAL to its end, so the next write starts it over. With
 * no worker, it also checkpoints whenever no request is in flight.
 */
const WAL_CHECKPOINT_BYTES = 32 * 1024 * 1024;

/**
 * How often the idle timer runs. Requests check for commits by other processes themselves (app.ts);
 * the timer does what no request triggers: ending overlay streams whose token the CLI rotated.
 */
const IDLE_WORK_MS = 250;

export class ListenError extends Error {}

function hostForUrl(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

/**
 * WAL checkpoints and analytics writes off the event loop; null (both on the loop instead) when no
 * worker starts.
 */
function startDatabaseWorker(ctx: Context, database: DatabaseHandle): DatabaseWorker | null {
  const events = ctx.events instanceof WriteBehindEventSink ? ctx.events : null;
  try {
    const worker = new DatabaseWorker(database.path, {
      onError: (message) => ctx.log.warn(`the database worker: ${message}`),
      onDropped: (count, error) => ctx.log.warn("command events could not be stored", { count, error }),
      onFailed: (reason) => {
        // Everything goes back to the event loop, as when no worker could be started.
        ctx.log.warn(
          `the database worker stopped working (${reason}); analytics writes and WAL checkpoints run on the main thread`,
        );
        ctx.accounts.writeTouchesThrough(null);
        void events?.handOverTo(null);
      },
    });
    void events?.handOverTo(worker);
    ctx.accounts.writeTouchesThrough(worker);
    return worker;
  } catch (error) {
    ctx.log.warn(
      "WAL checkpoints and analytics writes run on the main thread: no worker thread could be started",
      {
        error,
      },
    );
    return null;
  }
}

export function listen(ctx: Context, app: App): RunningServer {
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

  // The embedded database's WAL is checkpointed here; PostgreSQL looks after itself.
  const database = ctx.database;
  database?.checkpointWhenIdle();
  const worker = database ? startDatabaseWorker(ctx, database) : null;
  const poll = setInterval(() => {
    try {
      ctx.externalChanges.check();
      const idle = (worker === null || worker.failed) && server.pendingRequests === 0;
      if (database && (idle || database.walBytes() > WAL_CHECKPOINT_BYTES)) {
        database.checkpoint();
      }
    } catch (error) {
      ctx.log.warn("could not check the database for outside changes", { error });
    }
  }, IDLE_WORK_MS);

  let stopping: Promise<void> | null = null;
  return {
    url: `http://${hostForUrl(ctx.config.host)}:${port}`,
    port,
    stop(graceMs = 10_000) {
      stopping ??= (async () => {
        clearInterval(poll);
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
