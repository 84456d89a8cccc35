import type { Command } from "commander";
import { createApp } from "../../server/app.ts";
import { startChatLeadership } from "../../server/chat/leader.ts";
import { startNativeChat } from "../../server/chat/manager.ts";
import type { Config } from "../../server/config.ts";
import { type Context, openContext } from "../../server/context.ts";
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
import { redactUrl } from "../../server/store-urls.ts";
import { asCliFailure, loadCliConfig } from "../cli-context.ts";
import { CliFailure, type CliIo, type GlobalOptions } from "../output.ts";
import { addSettingsOptions, flagValues, type SettingsOptions } from "./server-options.ts";

/** The stores this instance uses, for the start log line. */
function describeStores(config: Config, shared: SharedStores | undefined): string {
  const database = config.databaseUrl ? `postgres ${redactUrl(config.databaseUrl)}` : "sqlite (data dir)";
  return shared ? `${database}, redis ${shared.redactedUrl}` : `${database}, in-process limits`;
}

export function registerServeCommand(program: Command, io: CliIo, globals: () => GlobalOptions): void {
  addSettingsOptions(program.command("serve").description("run the server (migrations are applied first)"))
    .option(
      "--demo",
      "start built-in simulators of Twitch and the game provider; try everything with no accounts",
    )
    .action(async (options: SettingsOptions & { demo?: boolean }) => {
      const config = loadCliConfig(globals(), { flags: flagValues(options) });
      // The demo's simulated world must not meet the real one's data, limits, overlays or chat lease.
      const ignoredStores = options.demo && (config.redisUrl !== null || config.databaseUrl !== null);
      if (options.demo) {
        config.redisUrl = null;
        config.databaseUrl = null;
      }
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
      let ctx: Context;
      try {
        prepareDataDir(config.dataDir);
        ctx = await openContext(config, { log: startLog, shared, serving: true });
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
        ctx.onClose(() => stores.close());
      }
      if (demo) {
        ctx.demoChat = demo.chat;
        ctx.onClose(() => demo.stop());
      }
      const log = ctx.log;
      let server: ReturnType<typeof listen>;
      try {
        server = listen(ctx, createApp(ctx));
      } catch (error) {
        await ctx.close();
        if (error instanceof ListenError) throw new CliFailure(error.message);
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
