/**
 * A migrated database for one test file, reached through the DataStore the query code runs on: a
 * fresh SQLite file, or a fresh PostgreSQL database when the suite runs on PostgreSQL
 * (`CUEBOT_TEST_DATABASE=postgres`, as tests/helpers/context.ts reads it). `connect()` opens another,
 * separate connection to the same database: another Database handle on the file, or another pool.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { insertAccount } from "../../db/accounts.ts";
import type { DataStore } from "../../db/data-store.ts";
import { openPostgres } from "../../db/pg/connection.ts";
import { PgDataStore } from "../../db/pg/pg-data-store.ts";
import { openDatabase } from "../../db/sqlite/connection.ts";
import { migrate } from "../../db/sqlite/migrate.ts";
import { SqliteDataStore } from "../../db/sqlite/sqlite-data-store.ts";
import { createTestDatabase, dropTestDatabase, postgresAvailable } from "../helpers/engines.ts";

export const engine: "sqlite" | "postgres" =
  process.env.CUEBOT_TEST_DATABASE === "postgres" ? "postgres" : "sqlite";

/** Whether this run cannot reach its engine (PostgreSQL asked for but not installed): suites skip. */
export const engineMissing = engine === "postgres" && !postgresAvailable;

export interface StoreUnderTest {
  /** The first connection. */
  store: DataStore;
  /** SQLite's file, or PostgreSQL's URL: what another process opens. */
  location: string;
  /** Another, separate connection to the same database; closed with the rest. */
  connect(): DataStore;
  /** A new account (its id), as first login makes one. */
  account(login?: string): Promise<number>;
  close(): Promise<void>;
}

let accounts = 0;

export async function openStoreUnderTest(): Promise<StoreUnderTest> {
  const closers: (() => Promise<void> | void)[] = [];
  let location: string;
  let connect: () => DataStore;
  if (engine === "postgres") {
    const database = await createTestDatabase();
    closers.push(() => dropTestDatabase(database));
    location = database.url;
    connect = () => {
      const handle = openPostgres(database.url, { max: 5 });
      closers.push(() => handle.close());
      return new PgDataStore(handle.db);
    };
  } else {
    const dir = mkdtempSync(join(tmpdir(), "cuebot-db-"));
    closers.push(() => rmSync(dir, { recursive: true, force: true }));
    location = join(dir, "cuebot.db");
    const file = location;
    connect = () => {
      const handle = openDatabase(file);
      closers.push(() => handle.close());
      return new SqliteDataStore(handle.sqlite, handle.db);
    };
    const first = openDatabase(file);
    migrate(first.sqlite);
    first.close();
  }
  const store = connect();
  return {
    store,
    location,
    connect,
    async account(login) {
      const n = ++accounts;
      const name = login ?? `streamer${n}`;
      const row = await insertAccount(
        store,
        { twitchUserId: String(90_000 + n), login: name, displayName: name },
        0,
      );
      return row.id;
    },
    async close() {
      for (const close of closers.reverse()) await close();
    },
  };
}
