import type { Build, DataStore, Tables } from "../data-store.ts";
import type { Db } from "../sqlite/connection.ts";
import { StoreUnavailableError } from "../store-unavailable.ts";
import type { PgDb } from "./connection.ts";
import * as pgTables from "./schema.ts";

/**
 * The query code in `db/` is typed against SQLite's builders and tables; run here, it builds on
 * PostgreSQL's. Drizzle's builders take the same calls on both dialects for everything that code
 * uses (tests/db/schema-parity.test.ts holds the tables' names and row types equal, and the
 * test suite runs on both), so the one cast below is where the two meet.
 */
type Builder = (db: Db, t: Tables) => unknown;
type PgTransaction = Parameters<Parameters<PgDb["transaction"]>[0]>[0];

/**
 * SQLSTATE classes and codes that mean "the server is not there for us right now", not "this query is
 * wrong": connection exceptions (08), shutting down or starting up (57P01–57P03), too many connections
 * (53300), and a statement cancelled by statement_timeout (57014).
 */
const UNREACHABLE_STATES = /^(08|57P0[123]|53300|57014)/;

/**
 * The server cancels a statement after its statement_timeout (10 s), but a server that is frozen or
 * cut off answers nothing at all: past this, the query counts as unanswered (503), whatever becomes
 * of it.
 */
export const QUERY_DEADLINE_MS = 12_000;

class NoAnswerError extends Error {
  readonly code = "ERR_POSTGRES_CONNECTION_TIMEOUT";
  constructor() {
    super(`PostgreSQL did not answer within ${QUERY_DEADLINE_MS / 1000} s`);
  }
}

/**
 * The store-unavailable error for a driver error, carrying the driver's own message and SQLSTATE
 * only: Drizzle's wrapper repeats the query and its parameters (hashes, sealed tokens), which must
 * not reach a log line.
 */
function unavailable(error: unknown): StoreUnavailableError {
  const cause = (error as { cause?: unknown }).cause ?? error;
  const { message, errno } = cause as { message?: unknown; errno?: unknown };
  const text = typeof message === "string" ? message : "no answer";
  return new StoreUnavailableError(
    "postgres",
    new Error(typeof errno === "string" ? `${text} (${errno})` : text),
  );
}

/** Whether a driver error says the database is away, rather than that a statement failed. */
export function isUnreachable(error: unknown): boolean {
  if (error instanceof NoAnswerError) return true;
  const cause = (error as { cause?: unknown }).cause ?? error;
  const { code, errno } = cause as { code?: unknown; errno?: unknown };
  if (typeof code === "string" && code.startsWith("ERR_POSTGRES_CONNECTION")) return true;
  return typeof errno === "string" && UNREACHABLE_STATES.test(errno);
}

/** PostgreSQL (`--database-url`): every query is a round trip, awaited. */
export class PgDataStore implements DataStore {
  readonly dialect = "postgres";

  constructor(private readonly db: PgDb | PgTransaction) {}

  async #run<R>(build: Builder): Promise<R> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return await Promise.race([
        build(this.db as unknown as Db, pgTables as unknown as Tables) as Promise<R>,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new NoAnswerError()), QUERY_DEADLINE_MS);
        }),
      ]);
    } catch (error) {
      throw isUnreachable(error) ? unavailable(error) : error;
    } finally {
      clearTimeout(timer);
    }
  }

  all<T>(build: Build<{ all(): T[] }>): Promise<T[]> {
    return this.#run<T[]>(build);
  }

  async first<T>(build: Build<{ all(): T[] }>): Promise<T | undefined> {
    const rows = await this.#run<T[]>(build);
    return rows[0];
  }

  async run(build: Build<{ run(): unknown }>): Promise<void> {
    await this.#run<unknown>(build);
  }

  async transaction<T>(fn: (tx: DataStore) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction((tx) => fn(new PgDataStore(tx)));
    } catch (error) {
      throw isUnreachable(error) ? unavailable(error) : error;
    }
  }
}
