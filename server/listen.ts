import type { App } from "./app.ts";
import { publicUrlFor } from "./config.ts";
import type { Context } from "./context.ts";
import { MAX_BODY_BYTES } from "./http/body-limit.ts";

export interface RunningServer {
  /** `http://host:port` with the real bound port. */
  url: string;
  port: number;
  /** Stops accepting, lets in-flight requests finish (up to `graceMs`), then closes the context. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * The WAL is checkpointed when no request is in flight; under load that never happens, so past this
 * size it is checkpointed anyway (one larger pause now and then rather than a small one every tick:
 * the fsync of a checkpoint costs the same whatever its size).
 */
const WAL_CHECKPOINT_BYTES = 32 * 1024 * 1024;

/**
 * How often the idle timer runs. Requests check for commits by other processes themselves (app.ts);
 * the timer does what no request triggers: ending overlay streams whose token the CLI rotated, and
 * the WAL checkpoint, kept off the request path.
 */
const IDLE_WORK_MS = 250;

export class ListenError extends Error {}

function hostForUrl(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

export function listen(ctx: Context, app: App): RunningServer {
  try {
    // A hard ceiling for bodies sent without Content-Length (the body-limit layer refuses announced ones).
    app.listen({
      hostname: ctx.config.host,
      port: ctx.config.port,
      maxRequestBodySize: MAX_BODY_BYTES * 4,
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
  const port = server.port;
  ctx.publicUrl = publicUrlFor(ctx.config, port);

  ctx.database.checkpointWhenIdle();
  const poll = setInterval(() => {
    try {
      ctx.externalChanges.check();
      if (server.pendingRequests === 0 || ctx.database.walBytes() > WAL_CHECKPOINT_BYTES) {
        ctx.database.checkpoint();
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
        const graceful = server.stop(false);
        const timedOut = await Promise.race([
          graceful.then(() => false),
          Bun.sleep(graceMs).then(() => true),
        ]);
        if (timedOut) {
          ctx.log.warn("in-flight requests did not finish in time; closing them");
          await server.stop(true);
        }
        ctx.close();
      })();
      return stopping;
    },
  };
}
