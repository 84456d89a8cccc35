import type { Command } from "commander";
import { createApp } from "../../server/app.ts";
import { startChatLeadership } from "../../server/chat/leader.ts";
import { startNativeChat } from "../../server/chat/manager.ts";
import type { Config } from "../../server/config.ts";
import { createContext } from "../../server/context.ts";
import { prepareDataDir } from "../../server/data-dir.ts";
import { type DemoEnvironment, startDemo } from "../../server/demo.ts";
import { startTokenUpkeep } from "../../server/identity/provider-tokens.ts";
import {
  HEARTBEAT_MS as INSTANCE_HEARTBEAT_MS,
  InstanceConflictError,
  type RegisteredInstance,
  registerInstance,
} from "../../server/instance-registry.ts";
import { ListenError, listen } from "../../server/listen.ts";
import { createLogger } from "../../server/log.ts";
import { startMaintenance } from "../../server/maintenance.ts";
import { connectSharedStores, SharedStoreError, type SharedStores } from "../../server/shared-stores.ts";
import { asCliFailure, loadCliConfig } from "../cli-context.ts";
import { CliFailure, type CliIo, type GlobalOptions } from "../output.ts";
import { addSettingsOptions, flagValues, type SettingsOptions } from "./server-options.ts";

/**
 * CUEBOT_DATABASE_URL (CONTRACT §2) is read and checked, and `db copy` fills a PostgreSQL database,
 * but the server itself still keeps its data in the embedded SQLite file. Started with it set, it
 * would silently be an instance on SQLite while the operator believes it shares PostgreSQL with its
 * siblings (two sets of keys and accounts): so it refuses, and says what works today. Redis works:
 * instances on one machine share the SQLite file and, through Redis, their limits and overlays.
 */
function refuseDatabaseUrl(config: Config): void {
  if (!config.databaseUrl) return;
  throw new CliFailure(
    `CUEBOT_DATABASE_URL (--database-url) is set, but this version of cuebot serves from the embedded SQLite database in its data folder only; running on PostgreSQL is not available in it yet. Unset it to serve from ${config.dataDir} (\`cuebot db copy\` already prepares a PostgreSQL database from it; several instances on one machine can share that folder's database, and Redis through --redis-url).`,
  );
}

export function registerServeCommand(program: Command, io: CliIo, globals: () => GlobalOptions): void {
  addSettingsOptions(program.command("serve").description("run the server (migrations are applied first)"))
    .option(
      "--demo",
      "start built-in simulators of Twitch and the game provider; try everything with no accounts",
    )
    .action(async (options: SettingsOptions & { demo?: boolean }) => {
      const config = loadCliConfig(globals(), { flags: flagValues(options) });
      refuseDatabaseUrl(config);
      // The demo's simulated world must not meet the real one's limits, overlays or chat lease.
      const ignoredRedis = options.demo && config.redisUrl !== null;
      if (options.demo) config.redisUrl = null;
      let instance: RegisteredInstance;
      try {
        instance = registerInstance(config.dataDir, {
          folder: options.demo ? "demo" : "data",
          redisUrl: config.redisUrl,
        });
      } catch (error) {
        if (error instanceof InstanceConflictError) throw new CliFailure(error.message);
        throw error;
      }
      const startLog = createLogger({ level: config.logLevel, format: config.logFormat });
      let shared: SharedStores | undefined;
      if (config.redisUrl) {
        try {
          shared = await connectSharedStores(config.redisUrl, startLog);
        } catch (error) {
          instance.release();
          if (error instanceof SharedStoreError) throw new CliFailure(error.message);
          throw error;
        }
      }
      let demo: DemoEnvironment | null = null;
      try {
        demo = options.demo ? startDemo(config) : null;
      } catch (error) {
        instance.release();
        await shared?.close();
        throw error;
      }
      let ctx: ReturnType<typeof createContext>;
      try {
        prepareDataDir(config.dataDir);
        ctx = createContext(config, { log: startLog, shared });
      } catch (error) {
        instance.release();
        await demo?.stop();
        await shared?.close();
        asCliFailure(error);
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
        ctx.onClose(() => void stores.close());
      }
      if (demo) {
        ctx.demoChat = demo.chat;
        ctx.onClose(() => void demo.stop());
      }
      const log = ctx.log;
      let server: ReturnType<typeof listen>;
      try {
        server = listen(ctx, createApp(ctx));
      } catch (error) {
        ctx.close();
        if (error instanceof ListenError) throw new CliFailure(error.message);
        throw error;
      }
      startTokenUpkeep(ctx);
      // Several instances: only the holder of the chat lease connects to chat.
      const leadership = shared ? startChatLeadership(ctx, shared) : null;
      if (leadership) ctx.onClose(() => void leadership.stop());
      else startNativeChat(ctx);
      startMaintenance(ctx);
      if (ignoredRedis)
        log.warn("demo mode ignores CUEBOT_REDIS_URL (--redis-url): the demo is one instance");
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
        stores: shared
          ? `sqlite (data dir), redis ${shared.redactedUrl}`
          : "sqlite (data dir), in-process limits",
      });
      // Scripts wait for this line (CONTRACT §3), so a quieter log level must not swallow it.
      if (config.logLevel === "warn" || config.logLevel === "error") io.err(`listening on ${server.url}`);

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
    });
}
