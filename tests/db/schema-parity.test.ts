import { describe, expect, test } from "bun:test";
import {
  type Column,
  getTableColumns,
  getTableName,
  type InferInsertModel,
  type InferSelectModel,
  is,
  Table,
} from "drizzle-orm";
import * as pg from "../../db/pg/schema.ts";
import * as lite from "../../db/sqlite/schema.ts";

/** Exact type equality (not mere assignability). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

type Selects<M> = {
  [K in keyof M as M[K] extends Table ? K : never]: M[K] extends Table ? InferSelectModel<M[K]> : never;
};
/**
 * Insert types compared with every column required: on SQLite an `integer` primary key without
 * AUTOINCREMENT (api_keys.account_id, …) is a rowid alias and so optional on insert, which PostgreSQL
 * rightly does not copy. Shared code always passes those keys, so it fits both.
 */
type Inserts<M> = {
  [K in keyof M as M[K] extends Table ? K : never]: M[K] extends Table
    ? Required<InferInsertModel<M[K]>>
    : never;
};

// Compile-time half of the parity test: every table exported by either schema, with identical row
// types on both dialects (what a query returns, and what an insert takes). `tsc --noEmit` fails here
// when a table or column is added to one schema only, or typed differently.
const sameRows: Equal<Selects<typeof lite>, Selects<typeof pg>> = true;
const sameInserts: Equal<Inserts<typeof lite>, Inserts<typeof pg>> = true;

function tablesOf(module: Record<string, unknown>): Map<string, Table> {
  const tables = new Map<string, Table>();
  for (const [exportName, value] of Object.entries(module)) {
    if (is(value, Table)) tables.set(exportName, value);
  }
  return tables;
}

interface ColumnShape {
  key: string;
  name: string;
  notNull: boolean;
  primary: boolean;
  hasDefault: boolean;
}

/** SQLite's rowid alias: an integer primary key without AUTOINCREMENT gets a value when none is given. */
function isRowidAlias(column: Column): boolean {
  return (
    column.columnType === "SQLiteInteger" &&
    column.primary &&
    !("autoIncrement" in column && column.autoIncrement)
  );
}

function columnsOf(table: Table): ColumnShape[] {
  return Object.entries(getTableColumns(table)).map(([key, column]) => ({
    key,
    name: column.name,
    notNull: column.notNull,
    primary: column.primary,
    hasDefault: column.hasDefault && !isRowidAlias(column),
  }));
}

describe("the PostgreSQL schema mirrors the SQLite one", () => {
  test("row and insert types are identical per table", () => {
    expect(sameRows).toBe(true);
    expect(sameInserts).toBe(true);
  });

  const liteTables = tablesOf(lite);
  const pgTables = tablesOf(pg);

  test("the same tables under the same export names and SQL names", () => {
    expect([...pgTables.keys()].sort()).toEqual([...liteTables.keys()].sort());
    for (const [exportName, table] of liteTables) {
      expect(getTableName(pgTables.get(exportName)!)).toBe(getTableName(table));
    }
  });

  test("the alerts' switch, settings, history and uploads are in both; uploads are bytes on both", () => {
    for (const name of ["alertChannels", "alertSettings", "alertEvents", "alertAssets"]) {
      expect(liteTables.has(name)).toBe(true);
      expect(pgTables.has(name)).toBe(true);
    }
    expect(lite.alertAssets.bytes.getSQLType()).toBe("blob");
    expect(pg.alertAssets.bytes.getSQLType()).toBe("bytea");
  });

  test("custom commands, regulars, quotes (and their counters) and timers are in both", () => {
    const chatBot = ["customCommands", "regulars", "quotes", "quoteCounters", "timers"];
    for (const name of chatBot) {
      expect(liteTables.has(name)).toBe(true);
      expect(pgTables.has(name)).toBe(true);
    }
  });

  for (const [exportName, table] of liteTables) {
    test(`${getTableName(table)}: same columns, nullability, keys and defaults`, () => {
      const twin = pgTables.get(exportName);
      expect(twin).toBeDefined();
      expect(columnsOf(twin!)).toEqual(columnsOf(table));
    });
  }
});
