import { SchemaTooNewError } from "../db/schema-status.ts";
import { DatabaseOpenError, isDatabaseBusy } from "../db/sqlite/connection.ts";
import { noticeChanges } from "../server/core/change-notices.ts";
import { type Config, ConfigError, loadConfig } from "../server/core/config.ts";
import { type CoreContext, openCore } from "../server/core/context.ts";
import { assertDataDirExists, DataDirError } from "../server/core/data-dir.ts";
import { createLogger } from "../server/core/log.ts";
import { SecretKeyError } from "../server/core/secrets.ts";
import { CliFailure, type GlobalOptions, holdOutput } from "./output.ts";

/** How long a command waits for a database that other processes keep busy (CONTRACT §3). */
export const CLI_DATABASE_WAIT_MS = 30_000;
/** How long one attempt's statement waits for a lock (SQLite's busy handler) before it is tried again. */
const CLI_BUSY_TIMEOUT_MS = 10_000;

/**
 * Turns the expected start-up failures into one `cuebot: …` line with exit 1. PostgreSQL's
 * (PostgresStorageError) is turned at the end, in cli/main.ts, so a SQLite command loads no PostgreSQL code.
 */
export function asCliFailure(error: unknown): never {
  if (
    error instanceof ConfigError ||
    error instanceof DataDirError ||
    error instanceof DatabaseOpenError ||
    error instanceof SchemaTooNewError ||
    error instanceof SecretKeyError
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
 * The admin commands work on an existing data folder, beside a running server if there is one; they
 * open the core only (config, database, secrets: no limiter, cache, chat or HTTP framework), and their
 * log lines go to stderr so stdout stays the command's answer.
 */
async function openCliContext(config: Config, busyTimeoutMs: number): Promise<CoreContext> {
  assertCliDataDir(config);
  const log = createLogger({
    level: "warn",
    format: "pretty",
    write: (line) => process.stderr.write(`${line}\n`),
  });
  return await openCore(config, { log, busyTimeoutMs });
}

function assertCliDataDir(config: Config): void {
  try {
    assertDataDirExists(config.dataDir, config.databaseUrl !== null);
  } catch (error) {
    asCliFailure(error);
  }
}

/**
 * Runs one admin command on the core. A database that other processes hold (SQLITE_BUSY, or
 * SQLITE_PROTOCOL while one of them opens or recovers the WAL) is waited for and the command run again
 * from the start, up to CLI_DATABASE_WAIT_MS: a failed attempt has rolled back and printed nothing.
 * Once done, it tells the servers running on the folder (change-notices.ts) and waits for their answer;
 * what the command prints is held until then, so a script never sees a new key before the servers do.
 */
export async function withCliContext<T>(
  globals: GlobalOptions,
  fn: (ctx: CoreContext) => T | Promise<T>,
): Promise<T> {
  const config = loadCliConfig(globals);
  const release = holdOutput();
  try {
    return await runWithRetries(config, fn);
  } finally {
    // Whatever the outcome (a command that fails after a commit too): the servers running on this
    // data folder drop what changed before this prints and exits. On PostgreSQL the database notifies
    // the instances on other folders too, a moment later.
    await noticeChanges(config.dataDir);
    release();
  }
}

async function runWithRetries<T>(config: Config, fn: (ctx: CoreContext) => T | Promise<T>): Promise<T> {
  const deadline = performance.now() + CLI_DATABASE_WAIT_MS;
  for (let attempt = 1; ; attempt++) {
    let ctx: CoreContext | null = null;
    let result: T;
    try {
      // The last attempt waits no longer than the time left, so the whole wait stays within 30 s.
      const left = deadline - performance.now();
      ctx = await openCliContext(config, Math.max(0, Math.min(CLI_BUSY_TIMEOUT_MS, left)));
      result = await fn(ctx);
    } catch (error) {
      await ctx?.close();
      if (!isDatabaseBusy(error)) asCliFailure(error);
      if (performance.now() > deadline) throw new CliFailure(busyMessage(error));
      await Bun.sleep(Math.min(25 * 2 ** attempt, 500) * (0.5 + Math.random()));
      continue;
    }
    await ctx.close();
    return result;
  }
}

function busyMessage(error: unknown): string {
  const seconds = CLI_DATABASE_WAIT_MS / 1000;
  return `the database stayed busy for ${seconds} s (other processes kept it locked: ${(error as Error).message}); nothing was changed, try again`;
}
