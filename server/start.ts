import { startChatLeadership } from "./chat/leader.ts";
import { startNativeChat } from "./chat/manager.ts";
import { listenForNotices, type NoticeListener } from "./core/change-notices.ts";
import type { Config } from "./core/config.ts";
import { prepareDataDir } from "./core/data-dir.ts";
import {
  HEARTBEAT_MS as INSTANCE_HEARTBEAT_MS,
  InstanceConflictError,
  type RegisteredInstance,
  registerInstance,
  runFolder,
} from "./core/instance-registry.ts";
import { createLogger } from "./core/log.ts";
import { redactUrl } from "./core/store-urls.ts";
import { type DemoEnvironment, startDemo } from "./demo.ts";
import { createApp } from "./http/app.ts";
import { ListenError, listen } from "./http/listen.ts";
import { startTokenUpkeep } from "./identity/provider-tokens.ts";
import { startMaintenance } from "./maintenance.ts";
import { type Context, openContext } from "./runtime.ts";
import { connectSharedStores, SharedStoreError, type SharedStores } from "./shared-stores.ts";

/** The server could not start for a reason the admin can act on; the message says which. */
export class StartError extends Error {}

export interface ServeOptions {
  /** `serve --demo`: simulators of Twitch and the game provider on loopback, on the demo's own data. */
  demo: boolean;
  /** Writes the "listening on" line where scripts see it when the log level hides it. */
  announce(line: string): void;
}

/** The stores this instance uses, for the start log line. */
function describeStores(config: Config, shared: SharedStores | undefined): string {
  const database = config.databaseUrl ? `postgres ${redactUrl(config.databaseUrl)}` : "sqlite (data dir)";
  return shared ? `${database}, redis ${shared.redactedUrl}` : `${database}, in-process limits`;
}

/**
 * A server alone on the embedded database hears of the admin commands' changes from the commands
 * themselves (core/change-notices.ts) instead of asking SQLite on every request. Instances sharing a
 * file through Redis write too, and the demo's data may be changed from anywhere: those still ask, and
 * so does a server that could not open its notice socket or say where it is.
 */
function listenForNoticesWhenAlone(
  ctx: Context,
  instance: RegisteredInstance,
  demoMode: boolean,
): NoticeListener | null {
  if (demoMode || !ctx.database || ctx.shared) return null;
  const listener = listenForNotices(
    runFolder(ctx.config.dataDir),
    () => ctx.externalChanges.check(),
    (error) => ctx.log.warn("could not look for a change an admin command announced", { error }),
  );
  if (listener && !instance.announce(listener.address)) {
    listener.stop();
    return null;
  }
  return listener;
}

/**
 * `cuebot serve`: starts everything, listens, and returns once SIGINT or SIGTERM has stopped it
 * gracefully. The CLI loads this module only for `serve`, so admin commands never load the server.
 */
export async function serve(config: Config, options: ServeOptions): Promise<void> {
  const { demo: demoMode } = options;
  // The demo's simulated world must not meet the real one's data, limits, overlays or chat lease.
  const ignoredStores = demoMode && (config.redisUrl !== null || config.databaseUrl !== null);
  if (demoMode) {
    config.redisUrl = null;
    config.databaseUrl = null;
  }
  let instance: RegisteredInstance;
  try {
    instance = registerInstance(config.dataDir, {
      folder: demoMode ? "demo" : "data",
      redisUrl: config.redisUrl,
    });
  } catch (error) {
    if (error instanceof InstanceConflictError) throw new StartError(error.message);
    throw error;
  }
  const startLog = createLogger({ level: config.logLevel, format: config.logFormat });
  let shared: SharedStores | undefined;
  if (config.redisUrl) {
    try {
      shared = await connectSharedStores(config.redisUrl, startLog);
    } catch (error) {
      instance.release();
      if (error instanceof SharedStoreError) throw new StartError(error.message);
      throw error;
    }
  }
  let demo: DemoEnvironment | null = null;
  try {
    demo = demoMode ? startDemo(config) : null;
  } catch (error) {
    instance.release();
    await shared?.close();
    throw error;
  }
  let ctx: Context;
  try {
    prepareDataDir(config.dataDir);
    ctx = await openContext(config, { log: startLog, shared, serving: true });
  } catch (error) {
    instance.release();
    await demo?.stop();
    await shared?.close();
    throw error;
  }
  // Other hosts and containers cannot see this process: they see its file being touched.
  const heartbeat = setInterval(() => instance.heartbeat(), INSTANCE_HEARTBEAT_MS);
  heartbeat.unref();
  ctx.onClose(() => {
    clearInterval(heartbeat);
    instance.release();
  });
  if (shared) {
    const stores = shared;
    ctx.onClose(() => stores.close());
  }
  if (demo) {
    ctx.demoChat = demo.chat;
    ctx.onClose(() => demo.stop());
  }
  const notices = listenForNoticesWhenAlone(ctx, instance, demoMode);
  if (notices) ctx.onClose(() => notices.stop());
  const log = ctx.log;
  let server: ReturnType<typeof listen>;
  try {
    server = listen(ctx, createApp(ctx, { changesAnnounced: notices !== null }));
  } catch (error) {
    await ctx.close();
    if (error instanceof ListenError) throw new StartError(error.message);
    throw error;
  }
  startTokenUpkeep(ctx);
  // Several instances: only the holder of the chat lease connects to chat.
  const leadership = shared ? startChatLeadership(ctx, shared) : null;
  if (leadership) ctx.onClose(() => leadership.stop());
  else startNativeChat(ctx);
  startMaintenance(ctx);
  if (ignoredStores)
    log.warn(
      "demo mode ignores CUEBOT_DATABASE_URL and CUEBOT_REDIS_URL: the demo is one instance on its own data",
    );
  if (demo) {
    log.info(
      `demo mode: simulated Twitch at ${demo.twitch.authUrl} and game provider at ${demo.game.url}; open ${ctx.publicUrl}/ and log in as any simulated user (demo data is kept in ${config.dataDir})`,
    );
  } else if (!ctx.identityProvider) {
    log.warn(
      "Twitch login is not configured: run `cuebot init --twitch-client-id <id> --twitch-client-secret <secret>` (or set CUEBOT_TWITCH_CLIENT_ID and CUEBOT_TWITCH_CLIENT_SECRET) and restart",
    );
  }
  log.info(`listening on ${server.url}`, {
    publicUrl: ctx.publicUrl,
    dataDir: config.dataDir,
    schemaVersion: ctx.schema.applied,
    // Which stores this instance uses: Redis shares limits and overlays with the other instances.
    stores: describeStores(config, shared),
  });
  // Scripts wait for this line (CONTRACT §3), so a quieter log level must not swallow it.
  if (config.logLevel === "warn" || config.logLevel === "error")
    options.announce(`listening on ${server.url}`);

  const signal = await new Promise<string>((resolve) => {
    process.once("SIGINT", () => resolve("SIGINT"));
    process.once("SIGTERM", () => resolve("SIGTERM"));
  });
  log.info("shutting down", { signal });
  // Chat first: the lease goes back to Redis while it is open, so another instance takes over now.
  await leadership?.stop();
  await server.stop();
  await shared?.close();
  log.info("stopped");
}
