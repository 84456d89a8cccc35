import { eq, sql } from "drizzle-orm";
import type { DataStore } from "./data-store.ts";

export interface StoredOverlayState {
  state: Record<string, unknown>;
  version: number;
  updatedAt: number;
}

export async function loadOverlayState(s: DataStore, accountId: number): Promise<StoredOverlayState> {
  const row = await s.first((db, t) =>
    db.select().from(t.overlayState).where(eq(t.overlayState.accountId, accountId)).limit(1),
  );
  if (!row) return { state: {}, version: 0, updatedAt: 0 };
  return {
    state: JSON.parse(row.state) as Record<string, unknown>,
    version: row.version,
    updatedAt: row.updatedAt,
  };
}

/** Replaces the published state; every publish gets the next version number. */
export async function publishOverlayState(
  s: DataStore,
  accountId: number,
  state: Record<string, unknown>,
  now: number,
): Promise<StoredOverlayState> {
  const json = JSON.stringify(state);
  const row = await s.first((db, t) =>
    db
      .insert(t.overlayState)
      .values({ accountId, state: json, version: 1, updatedAt: now })
      .onConflictDoUpdate({
        target: t.overlayState.accountId,
        set: { state: json, version: sql`${t.overlayState.version} + 1`, updatedAt: now },
      })
      .returning({ version: t.overlayState.version, updatedAt: t.overlayState.updatedAt }),
  );
  return { state, version: row!.version, updatedAt: row!.updatedAt };
}
