import { eq } from "drizzle-orm";
import { OBS_DEFAULT_URL } from "../server/vocabulary.ts";
import type { DataStore } from "./data-store.ts";
import type { ObsState, ObsVia } from "./schema-enums.ts";
import type { Sealer } from "./sealing.ts";

/**
 * An account's OBS connection in the store (issue 37): the streamer's settings, the obs-websocket
 * password sealed (never stored in the clear, never exported), and what the instance holding the
 * connection last saw of OBS, so every instance answers the dashboard the same.
 */

const SEAL = "obs-password";

export interface ObsSettings {
  enabled: boolean;
  url: string;
  via: ObsVia;
  /** null: none stored (OBS without authentication). */
  password: string | null;
}

/** What the connection last reported: its state and, while connected, OBS's version and names. */
export interface ObsSeen {
  state: ObsState;
  since: number | null;
  reason: string | null;
  obsVersion: string | null;
  scenes: string[];
  sources: string[];
}

export type StoredObs = ObsSettings & ObsSeen;

function names(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}

async function readRow(s: DataStore, accountId: number) {
  return s.first((db, t) =>
    db.select().from(t.obsSettings).where(eq(t.obsSettings.accountId, accountId)).limit(1),
  );
}

/** The account's settings and last seen state, the password opened; null: never saved. */
export async function readObs(s: DataStore, box: Sealer, accountId: number): Promise<StoredObs | null> {
  const row = await readRow(s, accountId);
  if (!row) return null;
  return {
    enabled: row.enabled,
    url: row.url,
    via: row.via,
    password: row.passwordSealed === null ? null : box.open(SEAL, row.passwordSealed, accountId),
    state: row.state,
    since: row.stateSince,
    reason: row.reason,
    obsVersion: row.obsVersion,
    scenes: names(row.scenes),
    sources: names(row.sources),
  };
}

/**
 * Saves the streamer's settings; `password` undefined keeps the stored one, null clears it. The
 * state is left to the connection (a first save starts `off`).
 */
export function writeObsSettings(
  s: DataStore,
  box: Sealer,
  accountId: number,
  settings: Omit<ObsSettings, "password"> & { password: string | null | undefined },
  now: number,
): Promise<void> {
  const { enabled, url, via, password } = settings;
  const sealed =
    password === undefined ? undefined : password === null ? null : box.seal(SEAL, password, accountId);
  return s.run((db, t) =>
    db
      .insert(t.obsSettings)
      .values({
        accountId,
        enabled,
        url,
        via,
        passwordSealed: sealed ?? null,
        scenes: "[]",
        sources: "[]",
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: t.obsSettings.accountId,
        set: { enabled, url, via, passwordSealed: sealed, updatedAt: now },
      }),
  );
}

/** Records what the connection sees now (on the instance that holds it). */
export function writeObsSeen(s: DataStore, accountId: number, seen: ObsSeen): Promise<void> {
  return s.run((db, t) =>
    db
      .update(t.obsSettings)
      .set({
        state: seen.state,
        stateSince: seen.since,
        reason: seen.reason,
        obsVersion: seen.obsVersion,
        scenes: JSON.stringify(seen.scenes),
        sources: JSON.stringify(seen.sources),
      })
      .where(eq(t.obsSettings.accountId, accountId)),
  );
}

/** Accounts whose streamer turned the OBS connection on. */
export async function listObsEnabledAccounts(s: DataStore): Promise<number[]> {
  const rows = await s.all((db, t) =>
    db
      .select({ accountId: t.obsSettings.accountId })
      .from(t.obsSettings)
      .where(eq(t.obsSettings.enabled, true)),
  );
  return rows.map((row) => row.accountId);
}

/** The OBS settings for the export (the defaults when never saved): never the password, only whether one is stored. */
export async function readObsExport(s: DataStore, accountId: number) {
  const row = await readRow(s, accountId);
  if (!row) return { enabled: false, url: OBS_DEFAULT_URL, via: "server", passwordSet: false, state: "off" };
  return {
    enabled: row.enabled,
    url: row.url,
    via: row.via,
    passwordSet: row.passwordSealed !== null,
    state: row.state,
  };
}
