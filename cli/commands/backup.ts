import type { Command } from "commander";
import type { CliIo, GlobalOptions } from "../output.ts";

export function registerBackupCommand(program: Command, io: CliIo, globals: () => GlobalOptions): void {
  program
    .command("backup")
    .description("consistent online copy of the database (safe while serving)")
    .argument("<file>", "where to write the copy")
    .option("--force", "replace FILE if it exists")
    .action(async (target: string, options: { force?: boolean }) => {
      const { backupDatabase } = await import("../actions/backup.ts");
      await backupDatabase(io, globals(), target, options);
    });
}
