import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { openPostgres } from "../../db/pg/connection.ts";
import { CopyError, copySqliteToPostgres } from "../../db/pg/copy.ts";
import { migratePg } from "../../db/pg/migrate.ts";
import { checkSecretKey, SecretKeyMismatchError } from "../../db/pg/secret-check.ts";
import { KeyCheckError, verifyCredentials } from "../../db/pg/verify-keys.ts";
import { SchemaTooNewError } from "../../db/schema-status.ts";
import { DatabaseOpenError, openDatabase } from "../../db/sqlite/connection.ts";
import { status } from "../../db/sqlite/migrate.ts";
import { readSecretKey, SECRET_KEY_FILE, SecretBox, SecretKeyError } from "../../server/core/secrets.ts";
import { checkDatabaseUrl, redactUrl } from "../../server/core/store-urls.ts";
import { CliFailure, type CliIo, CliUsageError, type GlobalOptions, printJson } from "../output.ts";

export interface CopyFlags {
  from?: string;
  to?: string;
}

/** The 32-byte key beside the database file (a data folder keeps both), as `serve` reads it. */
function secretKeyBeside(file: string): Buffer {
  const path = join(dirname(file), SECRET_KEY_FILE);
  if (!existsSync(path)) {
    throw new CliFailure(
      `no ${SECRET_KEY_FILE} beside ${file}: copy the data folder's ${SECRET_KEY_FILE} next to the database (keys and tokens are sealed with it)`,
    );
  }
  try {
    return readSecretKey(path);
  } catch (error) {
    if (error instanceof SecretKeyError) throw new CliFailure(error.message);
    throw error;
  }
}

/** A PostgreSQL failure in words, never repeating the URL's password. */
function postgresFailure(url: string, error: unknown): CliFailure {
  const message = error instanceof Error ? error.message : String(error);
  return new CliFailure(`PostgreSQL at ${redactUrl(url)}: ${message.replaceAll(url, redactUrl(url))}`);
}

/**
 * `cuebot db copy --from <file> --to <url>`: the embedded database into an empty PostgreSQL one, row
 * counts compared and the keys checked to still open.
 */
export async function copyDatabase(io: CliIo, globals: GlobalOptions, flags: CopyFlags): Promise<void> {
  const to = checkDatabaseUrl(flags.to ?? "");
  if (!to.ok) throw new CliUsageError(`--to ${to.problem}`);
  const file = resolve(flags.from ?? "");
  if (!existsSync(file)) throw new CliFailure(`${file} does not exist`);
  const master = secretKeyBeside(file);

  let source: ReturnType<typeof openDatabase>;
  try {
    source = openDatabase(file);
  } catch (error) {
    if (error instanceof DatabaseOpenError) throw new CliFailure(error.message);
    throw error;
  }
  const target = openPostgres(to.url, { max: 2, statementTimeoutMs: 600_000 });
  try {
    let schema: ReturnType<typeof status>;
    try {
      schema = status(source.sqlite);
    } catch (error) {
      if (error instanceof SchemaTooNewError) throw new CliFailure(error.message);
      throw error;
    }
    if (schema.applied !== schema.known) {
      throw new CliFailure(
        `${file} is at schema version ${schema.applied} of ${schema.known}: run \`cuebot migrate --data-dir ${dirname(file)}\` first`,
      );
    }
    try {
      await migratePg(target.sql);
      await checkSecretKey(target.sql, master);
    } catch (error) {
      if (error instanceof SchemaTooNewError || error instanceof SecretKeyMismatchError) {
        throw new CliFailure(error.message);
      }
      throw postgresFailure(to.url, error);
    }
    const json = globals.json === true;
    let report: Awaited<ReturnType<typeof copySqliteToPostgres>>;
    try {
      report = await copySqliteToPostgres(source, target, {
        onTable: (name, rows) => {
          if (!json) io.out(`${name.padEnd(18)} ${rows} rows`);
        },
      });
    } catch (error) {
      if (error instanceof CopyError) throw new CliFailure(`nothing was copied: ${error.message}`);
      throw postgresFailure(to.url, error);
    }
    let keys: Awaited<ReturnType<typeof verifyCredentials>>;
    try {
      keys = await verifyCredentials(target, new SecretBox(master));
    } catch (error) {
      if (error instanceof KeyCheckError) throw new CliFailure(error.message);
      throw postgresFailure(to.url, error);
    }
    const rows = report.tables.reduce((sum, t) => sum + t.rows, 0);
    if (json) {
      printJson(io, { to: redactUrl(to.url), tables: report.tables, rows, keysVerified: keys });
    } else {
      io.out(
        `copied ${rows} rows into ${redactUrl(to.url)}; row counts match and ${keys.apiKeys} API keys and ${keys.overlayTokens} overlay tokens still work`,
      );
      io.out(
        "The copy is ready: start cuebot with --database-url (or CUEBOT_DATABASE_URL) set to it, with this folder's secret.key in every instance's data folder.",
      );
    }
  } finally {
    source.close();
    await target.close();
  }
}
