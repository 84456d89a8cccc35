import { SQL } from "bun";
import { drizzle } from "drizzle-orm/bun-sql";
import * as schema from "./schema.ts";

export type PgDb = ReturnType<typeof drizzle<typeof schema>>;

export interface PgHandle {
  sql: SQL;
  db: PgDb;
  close(): Promise<void>;
}

export interface PgOptions {
  /** Pool size (Bun.sql's default is 10). */
  max?: number;
  /** Longest a statement may run before the server cancels it; nothing else bounds a running query. */
  statementTimeoutMs?: number;
}

/**
 * A pool on a PostgreSQL database through Bun.sql, and Drizzle over it. Connections open lazily, so
 * this never fails by itself: the first query reports an unreachable server.
 */
export function openPostgres(url: string, options: PgOptions = {}): PgHandle {
  const sql = new SQL({
    url,
    max: options.max ?? 10,
    // Seconds: a server that does not answer a connection attempt is away, not slow.
    connectionTimeout: 5,
    connection: {
      statement_timeout: String(options.statementTimeoutMs ?? 10_000),
      // LISTEN connections and idle pool members must not be closed by the server.
      idle_session_timeout: "0",
    },
  });
  const db = drizzle({ client: sql, schema });
  return {
    sql,
    db,
    close: () => sql.close({ timeout: 5 }),
  };
}
