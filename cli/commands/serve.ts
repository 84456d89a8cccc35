import type { Command } from "commander";
import { createApp } from "../../server/app.ts";
import { startNativeChat } from "../../server/chat/manager.ts";
import type { Config } from "../../server/config.ts";
import { createContext } from "../../server/context.ts";
import { prepareDataDir } from "../../server/data-dir.ts";
import { type DemoEnvironment, startDemo } from "../../server/demo.ts";
import { startTokenUpkeep } from "../../server/identity/provider-tokens.ts";
import { ListenError, listen } from "../../server/listen.ts";
import { startMaintenance } from "../../server/maintenance.ts";
import { asCliFailure, loadCliConfig } from "../cli-context.ts";
import { CliFailure, type CliIo, type GlobalOptions } from "../output.ts";
import { addSettingsOptions, flagValues, type SettingsOptions } from "./server-options.ts";

/**
 * CUEBOT_DATABASE_URL and CUEBOT_REDIS_URL (CONTRACT §2) are read and checked, and `db copy` fills a
 * PostgreSQL database, but the server itself still runs on the embedded SQLite file only. Started
 * with either set, it would silently be a single instance on SQLite while the operator believes it
 * shares PostgreSQL and Redis with its siblings (two instances, two quotas, two sets of keys): so it
 * refuses, and says what works today.
 */
function refuseSharedStores(config: Config): void {
  const set = [
    config.databaseUrl ? "CUEBOT_DATABASE_URL (--database-url)" : null,
    config.redisUrl ? "CUEBOT_REDIS_URL (--redis-url)" : null,
  ].filter((name) => name !== null);
  if (set.length === 0) return;
  throw new CliFailure(
    `${set.join(" and ")} ${set.length === 1 ? "is" : "are"} set, but this version of cuebot serves from the embedded SQLite database in its data folder only; running on PostgreSQL and Redis is not available in it yet. Unset ${set.length === 1 ? "it" : "them"} to serve from ${config.dataDir} (\`cuebot db copy\` already prepares a PostgreSQL database from it).`,
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
      refuseSharedStores(config);
      const demo: DemoEnvironment | null = options.demo ? startDemo(config) : null;
      let ctx: ReturnType<typeof createContext>;
      try {
        prepareDataDir(config.dataDir);
        ctx = createContext(config);
      } catch (error) {
        await demo?.stop();
        asCliFailure(error);
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
      startNativeChat(ctx);
      startMaintenance(ctx);
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
      });
      // Scripts wait for this line (CONTRACT §3), so a quieter log level must not swallow it.
      if (config.logLevel === "warn" || config.logLevel === "error") io.err(`listening on ${server.url}`);

      const signal = await new Promise<string>((resolve) => {
        process.once("SIGINT", () => resolve("SIGINT"));
        process.once("SIGTERM", () => resolve("SIGTERM"));
      });
      log.info("shutting down", { signal });
      await server.stop();
      log.info("stopped");
    });
}
