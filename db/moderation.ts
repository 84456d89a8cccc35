import { and, desc, eq, isNotNull, lt } from "drizzle-orm";
import type { DataStore } from "./data-store.ts";
import type { ModerationFilter, ModerationLogAction } from "./schema-enums.ts";
import { type SwitchedFeature, switchedFeature } from "./switched-features.ts";

/**
 * Chat moderation (issue 35) in the store: the streamer's switch and the state the running server
 * last reported, the filter and shield settings (JSON, read into settings with their defaults by
 * server/moderation/settings.ts), until when the raid shield holds, and the moderation log.
 */

export type ModerationChannel = SwitchedFeature;

const moderationSwitch = switchedFeature("moderationChannels");
export const readModerationChannel = moderationSwitch.read;
/** Turns moderation on or off for an account (the state is then reported by the running server). */
export const setModerationEnabled = moderationSwitch.setEnabled;
/** Records the state of the account's moderation as the running server sees it. */
export const writeModerationState = moderationSwitch.writeState;
/** Accounts whose streamer turned moderation on. */
export const listModerationEnabledAccounts = moderationSwitch.listEnabled;

/** The stored settings as saved (JSON values, unchecked), and the shield's end; null: none saved. */
export interface StoredModerationRules {
  filters: unknown;
  shield: unknown;
  shieldUntil: number | null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export async function readModerationRules(
  s: DataStore,
  accountId: number,
): Promise<StoredModerationRules | null> {
  const row = await s.first((db, t) =>
    db.select().from(t.moderationRules).where(eq(t.moderationRules.accountId, accountId)).limit(1),
  );
  return row
    ? { filters: parseJson(row.filters), shield: parseJson(row.shield), shieldUntil: row.shieldUntil }
    : null;
}

/** Saves the filter and shield settings (JSON-ready values), keeping the shield's end. */
export function writeModerationSettings(
  s: DataStore,
  accountId: number,
  settings: { filters: unknown; shield: unknown },
  now: number,
): Promise<void> {
  const filters = JSON.stringify(settings.filters);
  const shield = JSON.stringify(settings.shield);
  return s.run((db, t) =>
    db
      .insert(t.moderationRules)
      .values({ accountId, filters, shield, updatedAt: now })
      .onConflictDoUpdate({ target: t.moderationRules.accountId, set: { filters, shield, updatedAt: now } }),
  );
}

/** Until when the raid shield holds followers-only chat on (null: it is not on). */
export function writeShieldUntil(
  s: DataStore,
  accountId: number,
  until: number | null,
  now: number,
): Promise<void> {
  return s.run((db, t) =>
    db
      .insert(t.moderationRules)
      .values({ accountId, filters: "{}", shield: "{}", shieldUntil: until, updatedAt: now })
      .onConflictDoUpdate({
        target: t.moderationRules.accountId,
        set: { shieldUntil: until, updatedAt: now },
      }),
  );
}

/** One thing moderation did, as the log keeps it. */
export interface ModerationLogEntry {
  id: number;
  at: number;
  userId: string;
  userLogin: string;
  userName: string;
  filter: ModerationFilter | null;
  action: ModerationLogAction;
  seconds: number | null;
  /** The caught line; null once older than the days the log keeps texts, or when there is none. */
  text: string | null;
  undone: boolean;
}

export type NewModerationLogEntry = Omit<ModerationLogEntry, "id" | "undone">;

export async function addModerationLogEntry(
  s: DataStore,
  accountId: number,
  entry: NewModerationLogEntry,
): Promise<number> {
  const row = await s.first((db, t) =>
    db
      .insert(t.moderationLog)
      .values({ accountId, ...entry })
      .returning({ id: t.moderationLog.id }),
  );
  return row?.id ?? 0;
}

/** Several entries (of any accounts) in one statement, in the order given. */
export function addModerationLogEntries(
  s: DataStore,
  entries: readonly (NewModerationLogEntry & { accountId: number })[],
): Promise<void> {
  if (entries.length === 0) return Promise.resolve();
  return s.run((db, t) => db.insert(t.moderationLog).values([...entries]));
}

/** A page of the log, newest first: entries older (by id) than `before` when given. */
export async function listModerationLog(
  s: DataStore,
  accountId: number,
  options: { before: number | null; limit: number },
): Promise<ModerationLogEntry[]> {
  const rows = await s.all((db, t) =>
    db
      .select()
      .from(t.moderationLog)
      .where(
        options.before === null
          ? eq(t.moderationLog.accountId, accountId)
          : and(eq(t.moderationLog.accountId, accountId), lt(t.moderationLog.id, options.before)),
      )
      .orderBy(desc(t.moderationLog.id))
      .limit(options.limit),
  );
  return rows.map(({ accountId: _, ...entry }) => entry);
}

export async function readModerationLogEntry(
  s: DataStore,
  accountId: number,
  id: number,
): Promise<ModerationLogEntry | null> {
  const row = await s.first((db, t) =>
    db
      .select()
      .from(t.moderationLog)
      .where(and(eq(t.moderationLog.accountId, accountId), eq(t.moderationLog.id, id)))
      .limit(1),
  );
  if (!row) return null;
  const { accountId: _, ...entry } = row;
  return entry;
}

export function markModerationUndone(s: DataStore, accountId: number, id: number): Promise<void> {
  return s.run((db, t) =>
    db
      .update(t.moderationLog)
      .set({ undone: true })
      .where(and(eq(t.moderationLog.accountId, accountId), eq(t.moderationLog.id, id))),
  );
}

/** Clears the caught texts logged before `cutoff` (the hourly maintenance); how many were cleared. */
export async function clearModerationTexts(s: DataStore, cutoff: number): Promise<number> {
  const rows = await s.all((db, t) =>
    db
      .update(t.moderationLog)
      .set({ text: null })
      .where(and(lt(t.moderationLog.at, cutoff), isNotNull(t.moderationLog.text)))
      .returning({ id: t.moderationLog.id }),
  );
  return rows.length;
}

/** Deletes the log's entries from before `cutoff` (the hourly maintenance); how many went. */
export async function deleteModerationLogBefore(s: DataStore, cutoff: number): Promise<number> {
  const rows = await s.all((db, t) =>
    db.delete(t.moderationLog).where(lt(t.moderationLog.at, cutoff)).returning({ id: t.moderationLog.id }),
  );
  return rows.length;
}

/** Accounts whose raid shield holds, with until when (a restarted server takes their ends over). */
export async function listActiveShields(s: DataStore): Promise<{ accountId: number; until: number }[]> {
  const rows = await s.all((db, t) =>
    db
      .select({ accountId: t.moderationRules.accountId, until: t.moderationRules.shieldUntil })
      .from(t.moderationRules)
      .where(isNotNull(t.moderationRules.shieldUntil)),
  );
  return rows.flatMap((row) => (row.until === null ? [] : [{ accountId: row.accountId, until: row.until }]));
}
