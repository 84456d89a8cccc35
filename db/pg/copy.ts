import { createHash } from "node:crypto";
import { type Column, getTableColumns, getTableName, is, type SQL, sql, Table } from "drizzle-orm";
import { getTableConfig as getPgTableConfig, type PgTable } from "drizzle-orm/pg-core";
import {
  getTableConfig as getSqliteTableConfig,
  type SQLiteColumn,
  type SQLiteTable,
} from "drizzle-orm/sqlite-core";
import type { DatabaseHandle } from "../sqlite/connection.ts";
import * as lite from "../sqlite/schema.ts";
import type { PgHandle } from "./connection.ts";
import { statusPg } from "./migrate.ts";
import * as pg from "./schema.ts";

/** What was copied, per table, in the order it was copied. */
export interface CopyReport {
  tables: { name: string; rows: number }[];
}

export class CopyError extends Error {}

interface TablePair {
  name: string;
  source: SQLiteTable;
  target: PgTable;
  /** JS keys of the columns that hold JSON (text on SQLite, jsonb on PostgreSQL). */
  jsonKeys: string[];
  /** The identity column's SQL name, if the table has one. */
  identity: string | null;
}

function isJsonb(column: Column): boolean {
  return column.getSQLType() === "jsonb";
}

/** The tables of both schemas, paired by export name, parents before the tables that reference them. */
export function copyOrder(): TablePair[] {
  const pairs = new Map<string, TablePair>();
  for (const [exportName, source] of Object.entries(lite)) {
    if (!is(source, Table)) continue;
    const target = (pg as Record<string, unknown>)[exportName];
    if (!is(target, Table)) throw new CopyError(`the PostgreSQL schema lacks table ${exportName}`);
    const columns = Object.entries(getTableColumns(target as PgTable));
    pairs.set(getTableName(source), {
      name: getTableName(source),
      source: source as SQLiteTable,
      target: target as PgTable,
      jsonKeys: columns.filter(([, c]) => isJsonb(c)).map(([key]) => key),
      identity: getPgTableConfig(target as PgTable).columns.find((c) => c.generatedIdentity)?.name ?? null,
    });
  }
  const ordered: TablePair[] = [];
  const visiting = new Set<string>();
  const visit = (pair: TablePair) => {
    if (ordered.includes(pair) || visiting.has(pair.name)) return;
    visiting.add(pair.name);
    for (const fk of getSqliteTableConfig(pair.source).foreignKeys) {
      const parent = pairs.get(getTableName(fk.reference().foreignTable));
      if (parent && parent !== pair) visit(parent);
    }
    ordered.push(pair);
  };
  for (const pair of [...pairs.values()].sort((a, b) => a.name.localeCompare(b.name))) visit(pair);
  return ordered;
}

/** JSON with object keys sorted, so SQLite's text and PostgreSQL's normalised jsonb compare equal. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * An order-independent digest of rows: the sum, modulo 2^64, of each row's SHA-256 prefix over its
 * values in column order, JSON columns canonicalised. Equal digests and counts on both sides mean the
 * same rows, without sorting text the two engines collate differently.
 */
class RowDigest {
  #sum = 0n;

  add(row: Record<string, unknown>, keys: string[], jsonKeys: string[]): void {
    const values = keys.map((key) => {
      const value = row[key];
      return jsonKeys.includes(key) && typeof value === "string" ? canonicalJson(JSON.parse(value)) : value;
    });
    const hash = createHash("sha256").update(JSON.stringify(values)).digest();
    this.#sum = (this.#sum + hash.readBigUInt64BE(0)) & 0xffff_ffff_ffff_ffffn;
  }

  get value(): bigint {
    return this.#sum;
  }
}

export interface CopyOptions {
  /** Rows read and inserted per statement. */
  pageSize?: number;
  /** Called after each table. */
  onTable?(name: string, rows: number): void;
}

/**
 * Copies every row of an embedded SQLite database into a migrated, empty PostgreSQL database
 * (`cuebot db copy`): one SQLite read snapshot, one PostgreSQL transaction, parents first, pages of
 * `pageSize` rows by rowid, ids kept (identities are BY DEFAULT) and identity sequences moved past
 * them. Before committing it checks, per table, equal row counts, an equal row digest, and that no
 * JSON column holds a JSON string where an object or array belongs. Any mismatch rolls everything back.
 */
export async function copySqliteToPostgres(
  source: DatabaseHandle,
  target: PgHandle,
  options: CopyOptions = {},
): Promise<CopyReport> {
  const pageSize = options.pageSize ?? 1000;
  const schema = await statusPg(target.sql);
  if (schema.applied === 0 || schema.applied !== schema.known) {
    throw new CopyError(
      "the PostgreSQL database is not migrated to this cuebot's schema; run serve once first",
    );
  }
  const tables = copyOrder();
  for (const table of tables) {
    const [row] = await target.sql.unsafe(`SELECT EXISTS (SELECT 1 FROM "${table.name}") AS taken`);
    if (row?.taken)
      throw new CopyError(`the PostgreSQL database is not empty (table ${table.name} has rows)`);
  }

  const report: CopyReport = { tables: [] };
  source.sqlite.exec("BEGIN DEFERRED");
  try {
    await target.db.transaction(async (tx) => {
      for (const table of tables) {
        const columns = getTableColumns(table.source);
        const keys = Object.keys(columns);
        const fields: Record<string, SQLiteColumn | SQL> = {
          ...(columns as Record<string, SQLiteColumn>),
          __rowid: sql<number>`rowid`,
        };
        const written = new RowDigest();
        let lastRowid = -1;
        let rows = 0;
        for (;;) {
          const page = source.db
            .select(fields)
            .from(table.source)
            .where(sql`rowid > ${lastRowid}`)
            .orderBy(sql`rowid`)
            .limit(pageSize)
            .all() as Record<string, unknown>[];
          if (page.length === 0) break;
          lastRowid = page.at(-1)!.__rowid as number;
          const values = page.map((row) => {
            const { __rowid: _, ...rest } = row;
            written.add(rest, keys, table.jsonKeys);
            return rest;
          });
          await tx.insert(table.target).values(values as never);
          rows += page.length;
        }

        const read = new RowDigest();
        let copied = 0;
        for (const row of (await tx.select().from(table.target)) as Record<string, unknown>[]) {
          read.add(row, keys, table.jsonKeys);
          copied++;
        }
        if (copied !== rows || read.value !== written.value) {
          throw new CopyError(
            `${table.name}: ${rows} rows read but ${copied} differently stored; nothing was copied`,
          );
        }
        for (const key of table.jsonKeys) {
          const column = getTableColumns(table.target)[key]!.name;
          const [bad] = await tx.execute<{ n: number }>(
            sql.raw(
              `SELECT count(*)::int AS n FROM "${table.name}" WHERE jsonb_typeof("${column}") = 'string'`,
            ),
          );
          if (bad && bad.n > 0) {
            throw new CopyError(
              `${table.name}.${column}: ${bad.n} rows stored as JSON strings; nothing was copied`,
            );
          }
        }
        if (table.identity) {
          await tx.execute(
            sql.raw(
              `SELECT setval(pg_get_serial_sequence('"${table.name}"', '${table.identity}'), coalesce(max("${table.identity}"), 1), max("${table.identity}") IS NOT NULL) FROM "${table.name}"`,
            ),
          );
        }
        report.tables.push({ name: table.name, rows });
        options.onTable?.(table.name, rows);
      }
    });
  } finally {
    source.sqlite.exec("COMMIT");
  }
  return report;
}
