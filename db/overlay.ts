import { eq, sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import { overlayState } from "./schema.ts";

export interface StoredOverlayState {
  state: Record<string, unknown>;
  version: number;
  updatedAt: number;
}

export function loadOverlayState(db: Db, accountId: number): StoredOverlayState {
  const row = db.select().from(overlayState).where(eq(overlayState.accountId, accountId)).get();
  if (!row) return { state: {}, version: 0, updatedAt: 0 };
  return {
    state: JSON.parse(row.state) as Record<string, unknown>,
    version: row.version,
    updatedAt: row.updatedAt,
  };
}

/** Replaces the published state; every publish gets the next version number. */
export function publishOverlayState(
  db: Db,
  accountId: number,
  state: Record<string, unknown>,
  now: number,
): StoredOverlayState {
  const json = JSON.stringify(state);
  const row = db
    .insert(overlayState)
    .values({ accountId, state: json, version: 1, updatedAt: now })
    .onConflictDoUpdate({
      target: overlayState.accountId,
      set: { state: json, version: sql`${overlayState.version} + 1`, updatedAt: now },
    })
    .returning()
    .get();
  return { state, version: row.version, updatedAt: row.updatedAt };
}
