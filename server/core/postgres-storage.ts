import type { ReservedSQL } from "bun";
import { BatchedEventSink } from "../../db/event-sink.ts";
import { openPostgres, type PgHandle } from "../../db/pg/connection.ts";
import { migratePg } from "../../db/pg/migrate.ts";
import { PgDataStore } from "../../db/pg/pg-data-store.ts";
import { checkSecretKey, SecretKeyMismatchError } from "../../db/pg/secret-check.ts";
import { SchemaTooNewError } from "../../db/schema-status.ts";
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

/** How often an instance notifies itself, to know its listening connection still hears. */
const HEARTBEAT_MS = 2_000;
/** A heartbeat PostgreSQL took but the instance has not heard for this long: it is deaf. */
const DEAF_AFTER_MS = 10_000;
/** Longest pause between new subscriptions while deaf (a connection that never delivers). */
const MAX_RESUBSCRIBE_PAUSE_MS = 60_000;
/** While deaf, the caches hold at most this long. */
const DEAF_FLUSH_MS = 1_000;
/** How often the serving lock's connection is looked at (it may have been lost with PostgreSQL). */
const CLAIM_WATCH_MS = 5_000;
/** Longest wait at shutdown for the last analytics rows (a database that does not answer loses them). */
const CLOSE_FLUSH_MS = 5_000;
/** One warning per this many ms for what repeats while the database is away. */
const WARNING_INTERVAL_MS = 60_000;
const HEARTBEAT = "heartbeat";

/** PostgreSQL could not be used at start: unreachable, refused, or holding another cuebot's data. */
export class PostgresStorageError extends Error {}

/**
 * Changes to cached rows, by anyone (this instance, another one, the CLI), arrive as notifications
 * when the writing transaction commits (about 0.1 ms on loopback), and flush the caches at once. A
 * listening connection that comes back flushes too, since it missed what happened meanwhile. One that
 * stops hearing without noticing (a half-open connection, a restart it has not retried yet) is found
 * out by the heartbeat (see ListeningConnection): while it is deaf, `check()` flushes at most once a
 * second, so no cached answer is older than that.
 */
class NotifiedChanges implements ChangeFeed {
  readonly #listeners = new Set<() => void>();
  #deaf = false;
  #flushedAt = 0;

  check(): boolean {
    if (!this.#deaf || performance.now() - this.#flushedAt < DEAF_FLUSH_MS) return false;
    this.changed();
    return true;
  }

  /**
   * PostgreSQL's notification of the command's commit may still be on its way: flush now, so the next
   * request after the command is served with the change.
   */
  announced(): void {
    this.changed();
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  set deaf(deaf: boolean) {
    this.#deaf = deaf;
  }

  changed(): void {
    this.#flushedAt = performance.now();
    for (const listener of this.#listeners) listener();
  }
}

/**
 * The LISTEN connection, with a heartbeat: every HEARTBEAT_MS the instance notifies itself. A
 * heartbeat PostgreSQL accepted and that is not heard within DEAF_AFTER_MS means the connection
 * stopped hearing: the caches stop being trusted and the subscription is made again at once (rather
 * than after Bun's growing retry pause, up to 32 s). A heartbeat PostgreSQL refuses means it is away,
 * and then nobody can change anything either: caches go on.
 */
class ListeningConnection {
  readonly #changes = new NotifiedChanges();
  #subscription: Awaited<ReturnType<PgHandle["sql"]["listen"]>> | null = null;
  /** When the oldest accepted heartbeat not heard since was sent; null when all were heard. */
  #unheardSince: number | null = null;
  #deaf = false;
  #resubscribing = false;
  #beating = false;
  #stopped = false;
  #lastHeardAt = performance.now();
  /** Heartbeats PostgreSQL refused since the last it accepted. */
  #refusedInARow = 0;
  #nextResubscribeAt = 0;
  #resubscribePauseMs = HEARTBEAT_MS;
  #timer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly pg: PgHandle,
    private readonly log: Logger,
  ) {}

  get changes(): ChangeFeed {
    return this.#changes;
  }

  async start(): Promise<void> {
    this.#subscription = await this.#subscribe();
    this.#timer = setInterval(() => void this.#beat(), HEARTBEAT_MS);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    await this.#subscription?.unlisten().catch(() => {});
  }

  #subscribe() {
    let first = true;
    return this.pg.sql.listen(
      CACHE_CHANGES_CHANNEL,
      (payload) => this.#heard(payload),
      () => {
        // Subscribed again after a lost connection (by Bun's own retry): it missed what happened.
        if (!first) this.#changes.changed();
        first = false;
      },
    );
  }

  #heard(payload: string): void {
    this.#lastHeardAt = performance.now();
    this.#unheardSince = null;
    this.#resubscribePauseMs = HEARTBEAT_MS;
    if (this.#deaf) {
      this.#deaf = false;
      this.#changes.deaf = false;
      this.log.info("hearing PostgreSQL's change notifications again; caches in use again");
      this.#changes.changed();
    }
    if (payload !== HEARTBEAT) this.#changes.changed();
  }

  async #beat(): Promise<void> {
    if (this.#beating) return;
    this.#beating = true;
    try {
      await this.pg.sql.notify(CACHE_CHANGES_CHANNEL, HEARTBEAT);
    } catch {
      // Two refused in a row: PostgreSQL was away (one may be a single broken pool connection).
      this.#refusedInARow += 1;
      return;
    } finally {
      this.#beating = false;
    }
    // The clock starts when PostgreSQL accepted the heartbeat (not while it waited for a free pool
    // connection), and only if nothing was heard since.
    const acceptedAt = performance.now();
    if (this.#lastHeardAt < acceptedAt) this.#unheardSince ??= acceptedAt;
    // Back after being away: the listening connection went down with it and may be waiting out
    // Bun's retry pause, so do not wait to find it deaf.
    const back = this.#refusedInARow >= 2;
    this.#refusedInARow = 0;
    const unheardFor = this.#unheardSince === null ? 0 : acceptedAt - this.#unheardSince;
    if (!back && unheardFor < DEAF_AFTER_MS) return;
    if (!this.#deaf) {
      this.#deaf = true;
      this.#changes.deaf = true;
      if (back) this.log.info("PostgreSQL answers again: listening to its change notifications again");
      else {
        this.log.warn(
          "not hearing PostgreSQL's change notifications: caches hold at most a second until they are back",
        );
      }
      this.#changes.changed();
      this.#nextResubscribeAt = 0;
    } else {
      // Still deaf: flush with the heartbeat too, so what no request triggers (an overlay stream whose
      // token was rotated) still happens, with no poll of its own on the event loop (listen.ts).
      this.#changes.check();
    }
    if (acceptedAt < this.#nextResubscribeAt) return;
    // Still deaf after a new subscription (a proxy that never delivers): try less and less often.
    this.#nextResubscribeAt = acceptedAt + this.#resubscribePauseMs;
    this.#resubscribePauseMs = Math.min(this.#resubscribePauseMs * 2, MAX_RESUBSCRIBE_PAUSE_MS);
    void this.#resubscribe();
  }

  async #resubscribe(): Promise<void> {
    if (this.#resubscribing) return;
    this.#resubscribing = true;
    try {
      const old = this.#subscription;
      this.#subscription = null;
      await old?.unlisten().catch(() => {});
      const fresh = await this.#subscribe();
      // Stopped meanwhile: this one must not outlive the storage.
      if (this.#stopped) await fresh.unlisten().catch(() => {});
      else this.#subscription = fresh;
    } catch {
      // tried again at a later heartbeat
    } finally {
      this.#resubscribing = false;
    }
  }
}

/**
 * The serving lock (see SERVING_LOCK_KEY), on a connection reserved for it: a session-level lock
 * lives as long as its connection. A restart of PostgreSQL ends that session and with it the lock,
 * so a watchdog takes it again; if another instance took it meanwhile, an error says so every minute.
 */
class ServingClaim {
  #connection: ReservedSQL | null = null;
  #timer: ReturnType<typeof setInterval> | null = null;
  #lastWarning = Number.NEGATIVE_INFINITY;
  #watching = false;
  #released = false;

  constructor(
    private readonly pg: PgHandle,
    private readonly withRedis: boolean,
    private readonly log: Logger,
  ) {}

  async take(): Promise<void> {
    if (!(await this.#tryTake())) {
      throw new PostgresStorageError(
        this.withRedis
          ? "another cuebot instance serves this PostgreSQL database without Redis, so its quotas and cooldowns are its own: stop it, or restart it with the same --redis-url as this one"
          : "another cuebot instance already serves this PostgreSQL database; instances can only share it when all of them also share Redis (--redis-url), or each would keep its own quotas and cooldowns",
      );
    }
    this.#timer = setInterval(() => void this.#watch(), CLAIM_WATCH_MS);
    this.#timer.unref();
  }

  async release(): Promise<void> {
    this.#released = true;
    if (this.#timer) clearInterval(this.#timer);
    const connection = this.#connection;
    this.#connection = null;
    await connection?.release().catch(() => {});
  }

  /** Takes the lock on a newly reserved connection; true when this instance holds it now. */
  async #tryTake(): Promise<boolean> {
    const connection = await this.pg.sql.reserve();
    const take = this.withRedis ? "pg_try_advisory_lock_shared" : "pg_try_advisory_lock";
    let keep = false;
    try {
      const [row] = await connection.unsafe(`SELECT ${take}(${SERVING_LOCK_KEY}) AS ok`);
      // Released meanwhile, or already holding it on another connection: this one goes back.
      keep = row?.ok === true && !this.#released && this.#connection === null;
      if (keep) this.#connection = connection;
      return row?.ok === true;
    } finally {
      if (!keep) await connection.release().catch(() => {});
    }
  }

  async #watch(): Promise<void> {
    // One look at a time: a PostgreSQL that does not answer must not pile looks up behind it.
    if (this.#watching || this.#released) return;
    this.#watching = true;
    try {
      await this.#look();
    } finally {
      this.#watching = false;
    }
  }

  async #look(): Promise<void> {
    const connection = this.#connection;
    if (connection) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const answer = await Promise.race([
        connection.unsafe("SELECT 1").then(
          () => "alive" as const,
          () => "gone" as const,
        ),
        new Promise<"silent">((resolve) => {
          timer = setTimeout(() => resolve("silent"), CLAIM_WATCH_MS);
        }),
      ]);
      clearTimeout(timer);
      // Silent (PostgreSQL frozen, or the network): the session may still hold the lock; look later.
      if (answer !== "gone") return;
      // The session, and the lock with it, is gone.
      if (this.#connection === connection) this.#connection = null;
      await connection.release().catch(() => {});
    }
    try {
      if (await this.#tryTake()) {
        this.log.info("took the serving lock on PostgreSQL again");
        return;
      }
      if (performance.now() - this.#lastWarning >= WARNING_INTERVAL_MS) {
        this.#lastWarning = performance.now();
        this.log.error(
          "another cuebot instance started on this PostgreSQL database while it was away, and the two do not share their quotas and cooldowns: stop one of them, or run both with the same --redis-url",
        );
      }
    } catch {
      // PostgreSQL still away: tried again later
    }
  }
}

function startError(url: string, error: unknown): Error {
  if (error instanceof SchemaTooNewError || error instanceof PostgresStorageError) return error;
  if (error instanceof SecretKeyMismatchError) return new PostgresStorageError(error.message);
  const cause = (error as { cause?: unknown }).cause ?? error;
  return new PostgresStorageError(
    `cannot use the PostgreSQL database at ${redactUrl(url)}: ${(cause as Error).message ?? String(cause)}`,
  );
}

/** Counts what is dropped and says so at most once a minute (and once more at close). */
function droppedEventsReporter(log: Logger) {
  let dropped = 0;
  let lastWarning = Number.NEGATIVE_INFINITY;
  let lastError: unknown;
  const report = () => {
    if (dropped === 0) return;
    log.warn("command events could not be stored", { count: dropped, error: lastError });
    lastWarning = performance.now();
    dropped = 0;
  };
  return {
    onDropped(count: number, error: unknown) {
      dropped += count;
      lastError = error;
      if (performance.now() - lastWarning >= WARNING_INTERVAL_MS) report();
    },
    report,
  };
}

/**
 * PostgreSQL (`--database-url`): when serving, first the serving lock (so an instance that would be
 * refused changes nothing), then the migrations under their advisory lock, the check that the
 * database was created with this data folder's secret.key, and the listening connection.
 */
export async function openPostgresStorage(
  url: string,
  key: Buffer,
  log: Logger,
  options: { serving?: { withRedis: boolean } } = {},
): Promise<Storage> {
  const pg = openPostgres(url);
  const claim = options.serving ? new ServingClaim(pg, options.serving.withRedis, log) : null;
  const listening = new ListeningConnection(pg, log);
  try {
    await claim?.take();
    const schema = await migratePg(pg.sql);
    await checkSecretKey(pg.sql, key);
    await listening.start();
    const db = new PgDataStore(pg.db);
    const dropped = droppedEventsReporter(log);
    const events = new BatchedEventSink(db, { onDropped: dropped.onDropped });
    return {
      db,
      database: null,
      schema,
      externalChanges: listening.changes,
      events,
      async close() {
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          events.flush(),
          new Promise<void>((resolve) => {
            timer = setTimeout(resolve, CLOSE_FLUSH_MS);
          }),
        ]);
        clearTimeout(timer);
        dropped.report();
        await listening.stop();
        await claim?.release();
        await pg.close();
      },
    };
  } catch (error) {
    await listening.stop();
    await claim?.release();
    await pg.close().catch(() => {});
    throw startError(url, error);
  }
}
