import type { Db } from "../client.ts";
import type { Build, DataStore, Tables } from "../store.ts";
import type { PgDb } from "./client.ts";
import * as pgTables from "./schema.ts";

/**
 * The query code in `db/` is typed against SQLite's builders and tables; run here, it builds on
 * PostgreSQL's. Drizzle's builders take the same calls on both dialects for everything that code
 * uses (tests/unit/pg-schema-parity.test.ts holds the tables' names and row types equal, and the
 * test suite runs on both), so the one cast below is where the two meet.
 */
type Builder = (db: Db, t: Tables) => unknown;
type PgTransaction = Parameters<Parameters<PgDb["transaction"]>[0]>[0];

/** PostgreSQL (`--database-url`): every query is a round trip, awaited. */
export class PgStore implements DataStore {
  readonly dialect = "postgres";

  constructor(private readonly db: PgDb | PgTransaction) {}

  #run<R>(build: Builder): Promise<R> {
    return build(this.db as unknown as Db, pgTables as unknown as Tables) as Promise<R>;
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

  transaction<T>(fn: (tx: DataStore) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new PgStore(tx)));
  }
}
