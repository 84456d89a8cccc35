import { chmodSync, existsSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { isDatabaseBusy } from "../../db/sqlite/connection.ts";
import { withCliContext } from "../cli-context.ts";
import { CliFailure, type CliIo, type GlobalOptions, printJson } from "../output.ts";

/** `cuebot backup <file>`: a consistent online copy of the embedded database. */
export function backupDatabase(
  io: CliIo,
  globals: GlobalOptions,
  target: string,
  options: { force?: boolean },
): Promise<void> {
  const file = resolve(target);
  if (existsSync(file) && !options.force) {
    throw new CliFailure(`${file} already exists (use --force to replace it)`);
  }
  if (!existsSync(dirname(file))) throw new CliFailure(`folder ${dirname(file)} does not exist`);
  return withCliContext(globals, async (ctx) => {
    const database = ctx.database;
    if (!database) {
      throw new CliFailure(
        "the data is on PostgreSQL (CUEBOT_DATABASE_URL): back it up with pg_dump, e.g. `pg_dump --format=custom --file cuebot.dump <database url>`, and keep secret.key beside it",
      );
    }
    // VACUUM INTO reads one consistent snapshot, even while the server writes (WAL). It refuses an
    // existing file, so write beside the target and rename: a failed backup never clobbers one.
    const temporary = `${file}.partial-${process.pid}`;
    try {
      database.sqlite.run("VACUUM INTO ?", [temporary]);
      // A backup holds every account's data: readable by its owner only.
      chmodSync(temporary, 0o600);
      renameSync(temporary, file);
    } catch (error) {
      rmSync(temporary, { force: true });
      // Busy: withCliContext waits and tries again (the partial copy is gone).
      if (isDatabaseBusy(error)) throw error;
      throw new CliFailure(`backup failed: ${(error as Error).message}`);
    }
    const bytes = statSync(file).size;
    if (globals.json) printJson(io, { file, bytes, schemaVersion: ctx.schema.applied });
    else io.out(`backup written to ${file} (${bytes} bytes, schema version ${ctx.schema.applied})`);
  });
}
