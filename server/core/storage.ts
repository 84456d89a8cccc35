import type { DataStore } from "../../db/data-store.ts";
import type { EventSink } from "../../db/event-sink.ts";
import type { SchemaStatus } from "../../db/schema-status.ts";
import type { DatabaseHandle } from "../../db/sqlite/connection.ts";

/**
 * What the core needs of wherever the data lives, opened by sqlite-storage.ts (the embedded file in
 * the data folder) or postgres-storage.ts (`--database-url`).
 */

/** Tells the in-memory caches that someone else changed what they hold. */
export interface ChangeFeed {
  /** Looks now (cheap enough for every request); true when something changed (subscribers were told). */
  check(): boolean;
  /**
   * An admin command on this data folder says it committed a change (core/change-notices.ts): the
   * caches drop what it changed before the command prints and exits.
   */
  announced(): void;
  subscribe(listener: () => void): () => void;
}

/**
 * Where the data lives, with what only the database knows: whether another process changed what is
 * cached, and how analytics events are written behind.
 */
export interface Storage {
  db: DataStore;
  /** The embedded database's own handle (WAL checkpoints, backups); null on PostgreSQL. */
  database: DatabaseHandle | null;
  schema: SchemaStatus;
  externalChanges: ChangeFeed;
  events: EventSink;
  /** Closes the database once the buffered events are written. */
  close(): Promise<void>;
}
