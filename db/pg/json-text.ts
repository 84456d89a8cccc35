import { customType } from "drizzle-orm/pg-core";

/**
 * A `jsonb` column whose TypeScript value is the JSON text, exactly like the SQLite schema's `text`
 * columns that hold JSON, so rows have the same type on both dialects.
 *
 * The value crosses to the driver as the parsed object: drizzle's own `jsonb` stringifies and Bun.sql
 * then encodes that string again, storing a JSON *string* scalar (drizzle-orm #5287; scale-out.md §1.2).
 * Read back, Bun.sql hands over the parsed value, which is turned into text again. PostgreSQL
 * normalises jsonb (key order, whitespace), so the text read back is equal as JSON, not byte for byte.
 */
export const jsonText = customType<{ data: string; driverData: unknown }>({
  dataType: () => "jsonb",
  toDriver: (text: string): unknown => JSON.parse(text),
  fromDriver: (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value)),
});
