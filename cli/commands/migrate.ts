import type { Command } from "commander";
import type { CliIo, GlobalOptions } from "../output.ts";

export function registerMigrateCommand(program: Command, io: CliIo, globals: () => GlobalOptions): void {
  program
    .command("migrate")
    .description("apply pending database migrations and print the schema version")
    .action(async () => {
      const { migrateDatabase } = await import("../actions/migrate.ts");
      await migrateDatabase(io, globals());
    });
}
