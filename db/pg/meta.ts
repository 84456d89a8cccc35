import { pgTable, text } from "drizzle-orm/pg-core";

/**
 * Facts about the shared PostgreSQL database itself, not about any account: only PostgreSQL needs it
 * (an embedded database belongs to one data folder), so it is not part of the mirrored schema.
 * `secret_key_fingerprint` is the fingerprint of the secret.key the database was created with.
 */
export const cuebotMeta = pgTable("cuebot_meta", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
});
