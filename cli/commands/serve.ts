import type { Command } from "commander";
import { CliFailure, type CliIo, type GlobalOptions } from "../output.ts";
import { addSettingsOptions, flagValues, type SettingsOptions } from "./server-options.ts";

/**
 * Whether the demo was asked for: `--demo`, or `npm start --demo` (no `--`), where npm takes the flag
 * as its own setting and hands it on only as npm_config_demo=true.
 */
export function demoAsked(flag: boolean | undefined, env: Record<string, string | undefined>): boolean {
  return flag === true || env.npm_config_demo === "true";
}

export function registerServeCommand(program: Command, io: CliIo, globals: () => GlobalOptions): void {
  addSettingsOptions(program.command("serve").description("run the server (migrations are applied first)"))
    .option(
      "--demo",
      "start built-in simulators of Twitch and the game provider; try everything with no accounts",
    )
    .action(async (options: SettingsOptions & { demo?: boolean }) => {
      // Loaded here, not at the top: `--help` and the admin commands load neither the core nor the
      // server and its framework.
      const { asCliFailure, loadCliConfig } = await import("../cli-context.ts");
      const config = loadCliConfig(globals(), { flags: flagValues(options) });
      const { startServer, StartError } = await import("../../server/start.ts");
      try {
        await startServer(config, {
          demo: demoAsked(options.demo, process.env),
          announce: (line) => io.err(line),
        });
      } catch (error) {
        if (error instanceof StartError) throw new CliFailure(error.message);
        asCliFailure(error);
      }
    });
}
