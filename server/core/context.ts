import type { DataStore } from "../../db/data-store.ts";
import type { EventSink } from "../../db/event-sink.ts";
import type { SchemaStatus } from "../../db/schema-status.ts";
import type { DatabaseHandle } from "../../db/sqlite/connection.ts";
import { AccountDirectory } from "./account-directory.ts";
import { type Clock, systemClock } from "./clock.ts";
import type { Config } from "./config.ts";
import { createLogger, type Logger } from "./log.ts";
import { loadOrCreateSecretKey, SecretBox } from "./secrets.ts";
import { openSqliteStorage } from "./sqlite-storage.ts";
import type { ChangeFeed, Storage } from "./storage.ts";

/**
 * What the CLI's admin commands and the services under the server share: the config, the database,
 * the secrets, time, the log and the account lookups. No limiter, cache of upstream answers, chat
 * connection, HTTP framework or timer: a `cuebot role set` opens this and nothing else, so it cannot
 * disturb a server running beside it (server/runtime.ts builds the runtime on top of it).
 */
export interface CoreContext {
  config: Config;
  /** The embedded database's handle (WAL checkpoints, backups); null when the data is on PostgreSQL. */
  database: DatabaseHandle | null;
  /** The database's tables, through the query code in `db/`. */
  db: DataStore;
  secrets: SecretBox;
  clock: Clock;
  log: Logger;
  schema: SchemaStatus;
  /** Tells the in-memory caches that another process (the CLI, another instance) changed the data. */
  externalChanges: ChangeFeed;
  /** Cached account lookups by API key, overlay token and id (forgotten on every change). */
  accounts: AccountDirectory;
  /** Command calls for analytics and the activity feed, written behind (flush before reading them). */
  events: EventSink;
  /**
   * Closes what the context opened, in reverse order, and the database last (once the buffered
   * analytics events are written); safe to call twice. Everything is closed once the Promise settles.
   */
  close(): Promise<void>;
  /** Registers something to close with the context (awaited before the next, and before the database). */
  onClose(fn: () => void | Promise<void>): void;
}

export interface CoreOptions {
  clock?: Clock;
  log?: Logger;
  /** `serve`: this context serves requests (on PostgreSQL, claimed against instances it cannot share with). */
  serving?: { withRedis: boolean };
  /** Embedded database: how long a statement waits for another process's lock (default 10 s). */
  busyTimeoutMs?: number;
}

/** The core on the embedded database (synchronous: tests build one per case). */
export function createCore(config: Config, options: CoreOptions = {}): CoreContext {
  const log = options.log ?? createLogger({ level: config.logLevel, format: config.logFormat });
  const storage = openSqliteStorage(
    config,
    log,
    options.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: options.busyTimeoutMs },
  );
  try {
    const { key } = loadOrCreateSecretKey(config.dataDir);
    return assembleCore(config, { ...options, log }, storage, key);
  } catch (error) {
    void storage.close();
    throw error;
  }
}

/** The core on whichever database the config names: PostgreSQL with `--database-url`, else embedded. */
export async function openCore(config: Config, options: CoreOptions = {}): Promise<CoreContext> {
  if (!config.databaseUrl) return createCore(config, options);
  const log = options.log ?? createLogger({ level: config.logLevel, format: config.logFormat });
  const { key } = loadOrCreateSecretKey(config.dataDir);
  // Loaded only here: a command on the embedded database evaluates no PostgreSQL code.
  const { openPostgresStorage } = await import("./postgres-storage.ts");
  const storage = await openPostgresStorage(config.databaseUrl, key, log, {
    ...(options.serving ? { serving: options.serving } : {}),
  });
  try {
    return assembleCore(config, { ...options, log }, storage, key);
  } catch (error) {
    await storage.close();
    throw error;
  }
}

function assembleCore(
  config: Config,
  options: CoreOptions & { log: Logger },
  storage: Storage,
  key: Buffer,
): CoreContext {
  const { log } = options;
  const clock = options.clock ?? systemClock;
  const accounts = new AccountDirectory(
    storage.db,
    () => clock.now(),
    (error) => log.warn("could not note when a key or token was last used", { error }),
  );
  storage.externalChanges.subscribe(() => accounts.invalidate());
  const closers: (() => void | Promise<void>)[] = [];
  let closing: Promise<void> | null = null;
  return {
    config,
    database: storage.database,
    db: storage.db,
    secrets: new SecretBox(key),
    clock,
    log,
    schema: storage.schema,
    externalChanges: storage.externalChanges,
    accounts,
    events: storage.events,
    close() {
      closing ??= (async () => {
        // One after another, in reverse order, each finished before the next (chat stores its final
        // state, Redis hands back the chat lease) and all of them before the database closes.
        for (const fn of closers.reverse()) {
          try {
            await fn();
          } catch (error) {
            log.warn("error while closing", { error });
          }
        }
        await storage.close();
      })();
      return closing;
    },
    onClose(fn) {
      closers.push(fn);
    },
  };
}
