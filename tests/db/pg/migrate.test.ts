import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { SQL } from "bun";
import { migratePg, statusPg } from "../../../db/pg/migrate.ts";
import { SchemaTooNewError } from "../../../db/schema-status.ts";
import {
  createTestDatabase,
  dropTestDatabase,
  explainSkip,
  postgresAvailable,
  type TestDatabase,
} from "../../helpers/engines.ts";

/** Every embedded PostgreSQL migration, oldest first. */
const PG_TAGS = (
  JSON.parse(
    readFileSync(new URL("../../../db/migrations-pg/meta/_journal.json", import.meta.url), "utf8"),
  ) as {
    entries: { tag: string }[];
  }
).entries.map((e) => e.tag);

explainSkip("postgres");

describe.skipIf(!postgresAvailable)("PostgreSQL migrations", () => {
  let database: TestDatabase;
  const clients: SQL[] = [];
  const connect = (url: string) => {
    const sql = new SQL({ url, max: 2 });
    clients.push(sql);
    return sql;
  };

  beforeAll(async () => {
    database = await createTestDatabase({ migrated: false });
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    if (database) await dropTestDatabase(database);
  });

  test("three migrators started together on an empty database all succeed and record it once", async () => {
    const runners = [connect(database.url), connect(database.url), connect(database.url)];
    const results = await Promise.all(runners.map((sql) => migratePg(sql)));

    const applied = results.map((r) => r.newlyApplied);
    expect(applied.filter((tags) => tags.length > 0)).toEqual([PG_TAGS]);
    for (const result of results) {
      expect(result.applied).toBe(result.known);
      expect(result.latestTag).toBe(PG_TAGS.at(-1) ?? null);
    }
    const [row] = await runners[0]!.unsafe("SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations");
    expect(row.n).toBe(PG_TAGS.length);
    const tables: { table_name: string }[] = await runners[0]!.unsafe(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
    );
    expect(tables.map((t) => t.table_name)).toContain("accounts");
  });

  test("running again changes nothing", async () => {
    const status = await migratePg(connect(database.url));
    expect(status.newlyApplied).toEqual([]);
    expect(await statusPg(connect(database.url))).toEqual({
      ...status,
      newlyApplied: [],
      pending: [],
      tooNew: false,
    });
  });

  test("a database written by a newer cuebot is refused, and left as it was", async () => {
    const newer = await createTestDatabase();
    try {
      const sql = connect(newer.url);
      const future = Date.now() + 365 * 86_400_000;
      await sql.unsafe("INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ('x', $1)", [
        future,
      ]);
      await expect(migratePg(sql)).rejects.toBeInstanceOf(SchemaTooNewError);
      await expect(migratePg(sql)).rejects.toThrow("written by a newer cuebot");
      const [row] = await sql.unsafe("SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations");
      expect(row.n).toBe(PG_TAGS.length + 1);
    } finally {
      await Promise.all(clients.splice(0).map((c) => c.close()));
      await dropTestDatabase(newer);
    }
  });

  test("an empty database reports nothing applied", async () => {
    const empty = await createTestDatabase({ migrated: false });
    try {
      const status = await statusPg(connect(empty.url));
      expect(status.applied).toBe(0);
      expect(status.latestTag).toBeNull();
    } finally {
      await Promise.all(clients.splice(0).map((c) => c.close()));
      await dropTestDatabase(empty);
    }
  });
});
