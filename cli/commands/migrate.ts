import type { Command } from "commander";
import { withCliContext } from "../cli-context.ts";
import { type CliIo, type GlobalOptions, printJson } from "../output.ts";

export function registerMigrateCommand(program: Command, io: CliIo, globals: () => GlobalOptions): void {
  program
    .command("migrate")
    .description("apply pending database migrations and print the schema version")
    .action(() =>
      // Opening the context applies pending migrations in one transaction.
      withCliContext(globals(), async (ctx) => {
        const { applied, latestTag, newlyApplied } = ctx.schema;
        if (globals().json)
          return printJson(io, { schemaVersion: applied, latest: latestTag, applied: newlyApplied });
        const what = newlyApplied.length ? `applied ${newlyApplied.join(", ")}` : "already up to date";
        io.out(`schema version ${applied} (${latestTag ?? "empty"}); ${what}`);
      }),
    );
}
