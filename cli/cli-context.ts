import { DatabaseOpenError } from "../db/client.ts";
import { SchemaTooNewError } from "../db/migrate.ts";
import { type Config, ConfigError, loadConfig } from "../server/config.ts";
import { type Context, openContext } from "../server/context.ts";
import { assertDataDirExists, DataDirError } from "../server/data-dir.ts";
import { SecretKeyError } from "../server/identity/secrets.ts";
import { createLogger } from "../server/log.ts";
import { PostgresStorageError } from "../server/postgres-storage.ts";
import { CliFailure, type GlobalOptions } from "./output.ts";

/** Turns the expected start-up failures into one `cuebot: …` line with exit 1. */
export function asCliFailure(error: unknown): never {
  if (
    error instanceof ConfigError ||
    error instanceof DataDirError ||
    error instanceof DatabaseOpenError ||
    error instanceof SchemaTooNewError ||
    error instanceof SecretKeyError ||
    error instanceof PostgresStorageError
  ) {
    throw new CliFailure(error.message);
  }
  throw error;
}

export function loadCliConfig(globals: GlobalOptions, extra: Parameters<typeof loadConfig>[0] = {}): Config {
  try {
    return loadConfig({ ...extra, dataDir: globals.dataDir, isTty: process.stdout.isTTY === true });
  } catch (error) {
    asCliFailure(error);
  }
}

/**
 * The admin commands work on an existing data folder, beside a running server if there is one;
 * their log lines go to stderr so stdout stays the command's answer.
 */
export async function openCliContext(globals: GlobalOptions): Promise<Context> {
  const config = loadCliConfig(globals);
  try {
    assertDataDirExists(config.dataDir, config.databaseUrl !== null);
    const log = createLogger({
      level: "warn",
      format: "pretty",
      write: (line) => process.stderr.write(`${line}\n`),
    });
    return await openContext(config, { log });
  } catch (error) {
    asCliFailure(error);
  }
}

export async function withCliContext<T>(
  globals: GlobalOptions,
  fn: (ctx: Context) => T | Promise<T>,
): Promise<T> {
  const ctx = await openCliContext(globals);
  try {
    return await fn(ctx);
  } finally {
    await ctx.close();
  }
}
