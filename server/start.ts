import { createApp } from "./app.ts";
import type { ChatLeadership } from "./chat/leader.ts";
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
import { currentInvocation, howToConfigure } from "./core/invocation.ts";
import { createLogger, unredactedLine } from "./core/log.ts";
import { redactUrl } from "./core/store-urls.ts";
import type { DemoEnvironment } from "./demo.ts";
import { startTokenUpkeep } from "./identity/provider-tokens.ts";
import { ListenError, listen, type RunningServer } from "./listen.ts";
import { startLive, startLiveLeadership } from "./live-runtime.ts";
import { startMaintenance } from "./maintenance.ts";
import type { SharedStores } from "./redis/shared-stores.ts";
import { type Context, openContext } from "./runtime.ts";

/** The server could not start for a reason the admin can act on; the message says which. */
export class StartError extends Error {}

export interface StartOptions {
  /** `serve --demo`: simulators of Twitch and the game provider on loopback, on the demo's own data. */
  demo: boolean;
  /** Writes the "listening on" line where scripts see it when the log level hides it. */
  announce(line: string): void;
}

/** The stores this instance uses, for the start log line. */
function describeStores(config: Config, shared: SharedStores | null): string {
  const database = config.databaseUrl ? `postgres ${redactUrl(config.databaseUrl)}` : "sqlite (data dir)";
  return shared ? `${database}, redis ${shared.redactedUrl}` : `${database}, in-process limits`;
}

/**
 * The admin commands run on this data folder tell this server of their changes themselves
 * (core/change-notices.ts), and wait for its answer before they print. A server alone on the embedded
 * database then need not ask SQLite on every request (`changesAnnounced`). On PostgreSQL the notices
 * come beside the database's own notifications, which may arrive a moment after the command exits: a
 * key rotated by `cuebot key rotate` is refused at once. Instances sharing a SQLite file through Redis
 * write too, and the demo's data may be changed from anywhere: those ask on every request, and so does
 * a server that could not open its notice socket or say where it is.
 */
function listenForAdminNotices(
  ctx: Context,
  instance: RegisteredInstance,
  demoMode: boolean,
): NoticeListener | null {
  if (demoMode || (ctx.database && ctx.shared)) return null;
  const listener = listenForNotices(
    runFolder(ctx.config.dataDir),
    () => ctx.externalChanges.announced(),
    (error) => ctx.log.warn("could not look for a change an admin command announced", { error }),
  );
  if (listener && !instance.announce(listener.address)) {
    listener.stop();
    return null;
  }
  return listener;
}

/** What `startServer` starts from: the runtime, and what it says about the demo and the notices. */
interface OpenedRuntime {
  ctx: Context;
  /** This instance's record in the data folder's run folder. */
  instance: RegisteredInstance;
  demo: DemoEnvironment | null;
  /** The admin commands announce their changes to this server: no per-request look. */
  changesAnnounced: boolean;
}

/**
 * Everything the server runs on, built once and in order before anything listens: this instance's
 * registration in the data folder, Redis, the demo's simulators, then the runtime context on top,
 * which closes them all with itself. What was opened is closed again when a later step fails.
 */
async function openServerRuntime(given: Config, demoMode: boolean): Promise<OpenedRuntime> {
  // The demo is one instance on its own data, whatever stores are configured (server/demo.ts).
  const redisUrl = demoMode ? null : given.redisUrl;
  let instance: RegisteredInstance;
  try {
    instance = registerInstance(given.dataDir, { folder: demoMode ? "demo" : "data", redisUrl });
  } catch (error) {
    if (error instanceof InstanceConflictError) throw new StartError(error.message);
    throw error;
  }
  const startLog = createLogger({ level: given.logLevel, format: given.logFormat });
  let shared: SharedStores | undefined;
  if (redisUrl) {
    // Imported only here: the Redis client is ~650 modules (~6 MB of RSS once loaded), which a server
    // without Redis never runs. Likewise the demo's simulators below. (server/redis/script.ts must
    // not import "redis" either for this to hold: it is reached from the rate limits.)
    const { connectSharedStores, SharedStoreError } = await import("./redis/shared-stores.ts");
    try {
      shared = await connectSharedStores(redisUrl, startLog);
    } catch (error) {
      instance.release();
      if (error instanceof SharedStoreError) throw new StartError(error.message);
      throw error;
    }
  }
  let demo: DemoEnvironment | null = null;
  try {
    demo = demoMode ? (await import("./demo.ts")).startDemo(given) : null;
  } catch (error) {
    instance.release();
    await shared?.close();
    throw error;
  }
  const config = demo?.config ?? given;
  let ctx: Context;
  try {
    prepareDataDir(config.dataDir);
    ctx = await openContext(config, {
      log: startLog,
      serving: true,
      ...(shared ? { shared } : {}),
      ...(demo ? { demoChat: demo.chat, demoObs: demo.obs } : {}),
    });
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
  const stores = shared;
  if (stores) ctx.onClose(() => stores.close());
  const environment = demo;
  if (environment) {
    // The demo chat notes under a viewer's line why its command got no reply.
    const unbind = ctx.live.hooks.commandRefused.bind((r) =>
      environment.chat.refused(r.messageId, r.refused),
    );
    ctx.onClose(() => {
      unbind();
      return environment.stop();
    });
  }
  const notices = listenForAdminNotices(ctx, instance, demoMode);
  if (notices) ctx.onClose(() => notices.stop());
  // On PostgreSQL every request still looks (cheaply) for a deaf notification connection.
  return { ctx, instance, demo, changesAnnounced: notices !== null && ctx.database !== null };
}

/** The lines an admin reads at start: what is missing, where the demo is, where the server listens. */
function logStart(
  { ctx, demo }: OpenedRuntime,
  given: Config,
  server: RunningServer,
  announce: (line: string) => void,
): void {
  const { config, log } = ctx;
  if (demo && (given.redisUrl !== null || given.databaseUrl !== null))
    log.warn(
      "demo mode ignores CUEBOT_DATABASE_URL and CUEBOT_REDIS_URL: the demo is one instance on its own data",
    );
  if (demo) {
    log.info(
      `demo mode: simulated Twitch at ${demo.twitch.authUrl} and game provider at ${demo.game.url}; open ${ctx.publicUrl}/ and log in as any simulated user (demo data is kept in ${config.dataDir})`,
    );
  } else if (!ctx.twitchApp.configured) {
    log.warn(
      `Twitch login is not configured. ${howToConfigure(currentInvocation(), "this one-time setup link (printed on the next line)")}`,
    );
    printSetupLink(ctx);
  }
  log.info(`listening on ${server.url}`, {
    publicUrl: ctx.publicUrl,
    dataDir: config.dataDir,
    schemaVersion: ctx.schema.applied,
    // Which stores this instance uses: Redis shares limits and overlays with the other instances.
    stores: describeStores(config, ctx.shared),
  });
  // Scripts wait for this line (CONTRACT §3), so a quieter log level must not swallow it.
  if (config.logLevel === "warn" || config.logLevel === "error") announce(`listening on ${server.url}`);
}

/**
 * The one-time setup link, in full on a line of its own on stdout, whatever the log level: the one
 * secret cuebot prints (the log redacts every `token=`).
 */
function printSetupLink(ctx: Context): void {
  const token = ctx.setupLink?.token;
  if (!token) return;
  const link = `${ctx.publicUrl}/setup?token=${token}`;
  process.stdout.write(`${unredactedLine(ctx.config.logFormat, link, ctx.clock.now())}\n`);
}

/** What runs beside the listening server: token upkeep, chat (or the bid for it), maintenance. */
function startServices(ctx: Context, changesAnnounced: boolean): ChatLeadership | null {
  startTokenUpkeep(ctx);
  // Several instances: only the holder of the chat lease connects to chat.
  const leadership = ctx.shared ? startLiveLeadership(ctx, ctx.shared.store) : null;
  if (leadership) ctx.onClose(() => leadership.stop());
  else startLive(ctx, { changesAnnounced });
  startMaintenance(ctx);
  return leadership;
}

/** How often a server started by npm looks whether npm's shell is still there. */
const PARENT_CHECK_MS = 1000;

/**
 * Resolves when the server should stop, with why: SIGINT or SIGTERM, or, under `npm start` (npm sets
 * npm_lifecycle_event), the shell npm started it from gone. npm passes SIGTERM to that shell only,
 * which dies without passing it on, so the server would otherwise keep running, and its port, alone.
 */
function stopAsked(): Promise<Record<string, string>> {
  return new Promise((resolve) => {
    process.once("SIGINT", () => resolve({ signal: "SIGINT" }));
    process.once("SIGTERM", () => resolve({ signal: "SIGTERM" }));
    if (!process.env.npm_lifecycle_event) return;
    const parent = process.ppid;
    const check = setInterval(() => {
      if (process.ppid === parent) return;
      clearInterval(check);
      resolve({ reason: "npm, which started it, has stopped" });
    }, PARENT_CHECK_MS);
    check.unref();
  });
}

/**
 * `cuebot serve`: builds the runtime once, listens, starts chat and the timers, and returns once
 * SIGINT or SIGTERM has stopped it gracefully. The CLI loads this module only for `serve`, so admin
 * commands never load the server.
 */
export async function startServer(config: Config, options: StartOptions): Promise<void> {
  const opened = await openServerRuntime(config, options.demo);
  const { ctx } = opened;
  let server: RunningServer;
  try {
    const changesAnnounced = opened.changesAnnounced;
    server = listen(ctx, createApp(ctx, { changesAnnounced }), { changesAnnounced });
  } catch (error) {
    await ctx.close();
    if (error instanceof ListenError) throw new StartError(error.message);
    throw error;
  }
  // `cuebot doctor` looks for the server where it really listens (`--port 0`, or another port).
  opened.instance.listening(server.url);
  // Listened for before the "listening on" line: a script may send SIGTERM as soon as it reads it.
  const stopping = stopAsked();
  let leadership: ChatLeadership | null;
  try {
    leadership = startServices(ctx, opened.changesAnnounced);
    logStart(opened, config, server, options.announce);
  } catch (error) {
    // Listening already: stop, and close what was started, before the error reaches the CLI.
    await server.stop();
    await ctx.shared?.close();
    throw error;
  }

  ctx.log.info("shutting down", await stopping);
  // Chat first: the lease goes back to Redis while it is open, so another instance takes over now.
  await leadership?.stop();
  await server.stop();
  await ctx.shared?.close();
  ctx.log.info("stopped");
}
