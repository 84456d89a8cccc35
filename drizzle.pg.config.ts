import { defineConfig } from "drizzle-kit";

/** The PostgreSQL migrations (`drizzle-kit generate --config drizzle.pg.config.ts`); SQLite's (drizzle.config.ts) stay in db/migrations. */
export default defineConfig({
  dialect: "postgresql",
  schema: ["./db/pg/schema.ts", "./db/pg/meta.ts"],
  out: "./db/migrations-pg",
});
