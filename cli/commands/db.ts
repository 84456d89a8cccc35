import type { Command } from "commander";
import type { CopyFlags } from "../actions/db-copy.ts";
import type { CliIo, GlobalOptions } from "../output.ts";

export function registerDbCommands(program: Command, io: CliIo, globals: () => GlobalOptions): void {
  const db = program.command("db").description("move an install between database engines");
  db.command("copy")
    .description(
      "copy an embedded database (cuebot.db) into an empty PostgreSQL database, verifying row counts and that keys still work",
    )
    .requiredOption(
      "--from <file>",
      "the SQLite database file (cuebot.db in the data folder; secret.key beside it)",
    )
    .requiredOption("--to <url>", "postgres://user:password@host:5432/database (migrated here if new)")
    .action(async (flags: CopyFlags) => {
      const { copyDatabase } = await import("../actions/db-copy.ts");
      await copyDatabase(io, globals(), flags);
    });
}
