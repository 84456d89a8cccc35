import { customType } from "drizzle-orm/pg-core";

/**
 * A `bytea` column whose TypeScript value is a Buffer, exactly like the SQLite schema's
 * `blob({ mode: "buffer" })` columns, so rows have the same type on both dialects. Bun.sql hands
 * bytea over as a Buffer or a Uint8Array; either becomes a Buffer over the same bytes.
 */
export const byteaBuffer = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => "bytea",
  toDriver: (value: Buffer): Uint8Array => value,
  fromDriver: (value: Uint8Array): Buffer =>
    Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength),
});
