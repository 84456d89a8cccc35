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

/** How often an instance notifies itself, to know its listening connection still hears. */
const HEARTBEAT_MS = 5_000;
/** Heard nothing, not even its own heartbeat, for this long: the instance may be missing changes. */
const DEAF_AFTER_MS = 15_000;
const HEARTBEAT = "heartbeat";

/**
 * Changes to cached rows, by anyone (this instance, another one, the CLI), arrive as notifications
 * when the writing transaction commits (about 0.1 ms on loopback), and flush the caches at once. A
 * listening connection that was lost and comes back flushes too, since it missed what happened
 * meanwhile. Until it is back (it retries with a growing pause, up to 32 s), the instance notices by
 * its own heartbeat going unheard, and then every `check()` flushes: nothing is served from a cache
 * that might be stale for longer than DEAF_AFTER_MS.
 */
class NotifiedChanges implements ChangeFeed {
  readonly #listeners = new Set<() => void>();
  #lastHeard = performance.now();

  check(): boolean {
    if (performance.now() - this.#lastHeard < DEAF_AFTER_MS) return false;
    this.changed();
    return true;
  }

  heard(payload: string): void {
    this.#lastHeard = performance.now();
    if (payload !== HEARTBEAT) this.changed();
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
      (payload) => changes.heard(payload),
      () => {
        // The first subscription missed nothing; a renewed one may have.
        if (subscribed) {
          log.info("listening to PostgreSQL again; caches flushed");
          changes.changed();
        }
        subscribed = true;
      },
    );
    const heartbeat = setInterval(() => {
      pg.sql.notify(CACHE_CHANGES_CHANNEL, HEARTBEAT).catch(() => {});
    }, HEARTBEAT_MS);
    heartbeat.unref();
    const db = new PgStore(pg.db);
    let serving: Awaited<ReturnType<typeof pg.sql.reserve>> | null = null;
    // While the database is away every batch fails: one warning a minute, with the count since.
    let dropped = 0;
    let lastWarning = Number.NEGATIVE_INFINITY;
    const events = new BatchedEventSink(db, {
      onDropped: (count, error) => {
        dropped += count;
        if (performance.now() - lastWarning < 60_000) return;
        lastWarning = performance.now();
        log.warn("command events could not be stored", { count: dropped, error });
        dropped = 0;
      },
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
        clearInterval(heartbeat);
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
