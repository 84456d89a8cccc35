import type { Command } from "commander";
import type { CliIo, GlobalOptions } from "../output.ts";
import { addSettingsOptions, type SettingsOptions } from "./server-options.ts";

export function registerInitCommand(program: Command, io: CliIo, globals: () => GlobalOptions): void {
  addSettingsOptions(
    program
      .command("init")
      .description("create the data folder, secret key, config and database; safe to run again"),
  )
    .option("--owner <login>", "your Twitch login: your account is created with role Partner at first login")
    .option("--force", "replace stored config values with the ones given as flags")
    .action(async (options: SettingsOptions & { force?: boolean }) => {
      const { initDataFolder } = await import("../actions/init.ts");
      await initDataFolder(io, globals(), options);
    });
}
