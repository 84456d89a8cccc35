import { withCliContext } from "../cli-context.ts";
import { type CliIo, type GlobalOptions, printJson } from "../output.ts";

/** `cuebot migrate`: opening the context applies pending migrations in one transaction. */
export function migrateDatabase(io: CliIo, globals: GlobalOptions): Promise<void> {
  return withCliContext(globals, async (ctx) => {
    const { applied, latestTag, newlyApplied } = ctx.schema;
    if (globals.json)
      return printJson(io, { schemaVersion: applied, latest: latestTag, applied: newlyApplied });
    const what = newlyApplied.length ? `applied ${newlyApplied.join(", ")}` : "already up to date";
    io.out(`schema version ${applied} (${latestTag ?? "empty"}); ${what}`);
  });
}
