// A Bun macro: runs at build (and transpile) time, so the migration SQL ends up inside the compiled
// binary and nothing is read from disk at run time. See reference/platform-notes.md §2.5.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface EmbeddedMigration {
  tag: string;
  sql: string[];
  bps: boolean;
  folderMillis: number;
  hash: string;
}

interface Journal {
  entries: { idx: number; when: number; tag: string; breakpoints: boolean }[];
}

/** `folder` is relative to db/: "migrations" (SQLite) or "migrations-pg" (PostgreSQL). */
export function embeddedMigrations(folderName = "migrations"): EmbeddedMigration[] {
  const folder = join(import.meta.dir, folderName);
  const journal = JSON.parse(readFileSync(join(folder, "meta", "_journal.json"), "utf8")) as Journal;
  return journal.entries
    .toSorted((a, b) => a.idx - b.idx)
    .map((entry) => {
      const query = readFileSync(join(folder, `${entry.tag}.sql`), "utf8");
      return {
        tag: entry.tag,
        sql: query.split("--> statement-breakpoint"),
        bps: entry.breakpoints,
        folderMillis: entry.when,
        hash: createHash("sha256").update(query).digest("hex"),
      };
    });
}
