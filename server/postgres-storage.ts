import { BatchedEventSink } from "../db/event-sink.ts";
import { SchemaTooNewError } from "../db/migrate.ts";
import { openPostgres } from "../db/pg/client.ts";
import { migratePg } from "../db/pg/migrate.ts";
import { checkSecretKey, SecretKeyMismatchError } from "../db/pg/secret-check.ts";
import { PgStore } from "../db/pg/store.ts";
import type { Logger } from "./log.ts";
import type { ChangeFeed, Storage } from "./storage.ts";
import { redactUrl } from "./store-urls.ts";

/** The channel migration 0002 (PostgreSQL) notifies on every write to what instances cache. */
export const CACHE_CHANGES_CHANNEL = "cuebot_cache_changes";

/**
 * The advisory-lock key of serving instances ("cues"): held shared by instances with Redis,
 * exclusively by one without, for as long as each serves.
 */
export const SERVING_LOCK_KEY = 0x63756573;

/** PostgreSQL could not be used at start: unreachable, refused, or holding another cuebot's data. */
export class PostgresStorageError extends Error {}

/**
 * Changes to cached rows, by anyone (this instance, another one, the CLI), arrive as notifications
 * when the writing transaction commits (about 0.1 ms on loopback), and flush the caches at once. A
 * listening connection that was lost and comes back flushes too, since it missed what happened
 * meanwhile. `check()` has nothing to look at: the news comes by itself.
 */
class NotifiedChanges implements ChangeFeed {
  readonly #listeners = new Set<() => void>();

  check(): boolean {
    return false;
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  changed(): void {
    for (const listener of this.#listeners) listener();
  }
}

function reachError(url: string, error: unknown): PostgresStorageError {
  return new PostgresStorageError(
    `cannot use the PostgreSQL database at ${redactUrl(url)}: ${(error as Error).message}`,
  );
}

/**
 * PostgreSQL (`--database-url`): migrated under its advisory lock, checked to have been created with
 * this data folder's secret.key, and listened to for changes to what instances cache.
 */
export async function openPostgresStorage(url: string, key: Buffer, log: Logger): Promise<Storage> {
  const pg = openPostgres(url);
  try {
    const schema = await migratePg(pg.sql).catch((error: unknown) => {
      throw error instanceof SchemaTooNewError ? error : reachError(url, error);
    });
    await checkSecretKey(pg.sql, key).catch((error: unknown) => {
      throw error instanceof SecretKeyMismatchError ? new PostgresStorageError(error.message) : error;
    });
    const changes = new NotifiedChanges();
    let subscribed = false;
    const subscription = await pg.sql.listen(
      CACHE_CHANGES_CHANNEL,
      () => changes.changed(),
      () => {
        // The first subscription missed nothing; a renewed one may have.
        if (subscribed) {
          log.info("listening to PostgreSQL again; caches flushed");
          changes.changed();
        }
        subscribed = true;
      },
    );
    const db = new PgStore(pg.db);
    let serving: Awaited<ReturnType<typeof pg.sql.reserve>> | null = null;
    const events = new BatchedEventSink(db, {
      onDropped: (count, error) => log.warn("command events could not be stored", { count, error }),
    });
    return {
      db,
      database: null,
      schema,
      externalChanges: changes,
      events,
      async claimServing(withRedis) {
        // A session-level lock lives as long as its connection: one reserved for it.
        const connection = await pg.sql.reserve();
        const take = withRedis ? "pg_try_advisory_lock_shared" : "pg_try_advisory_lock";
        const [row] = await connection.unsafe(`SELECT ${take}(${SERVING_LOCK_KEY}) AS ok`);
        if (row?.ok) {
          serving = connection;
          return;
        }
        await connection.release();
        throw new PostgresStorageError(
          withRedis
            ? "another cuebot instance serves this PostgreSQL database without Redis, so its quotas and cooldowns are its own: stop it, or restart it with the same --redis-url as this one"
            : "another cuebot instance already serves this PostgreSQL database; instances can only share it when all of them also share Redis (--redis-url), or each would keep its own quotas and cooldowns",
        );
      },
      async close() {
        await events.flush();
        await serving?.release().catch(() => {});
        await subscription.unlisten().catch(() => {});
        await pg.close();
      },
    };
  } catch (error) {
    await pg.close().catch(() => {});
    throw error;
  }
}
