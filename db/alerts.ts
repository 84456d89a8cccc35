import { and, asc, desc, eq, gt, gte, lt, not, or, type SQL, sql } from "drizzle-orm";
import {
  ALERT_LIMITS,
  type AlertFields,
  type AlertSettings,
  checkAlertSettingsChanges,
  defaultAlertSettings,
  invalidAlertInput,
} from "./alert-rules.ts";
import type { DataStore, Tables } from "./data-store.ts";
import { ALERT_TYPES, type AlertAssetKind, type AlertType } from "./schema-enums.ts";
import type { alertEvents, alertSettings } from "./sqlite/schema.ts";
import { type SwitchedFeature, switchedFeature } from "./switched-features.ts";

/**
 * Stream alerts (issue 25) in the store: an account's switch and the state its EventSub session last
 * reported, each type's settings (defaults where none were saved), and the alert history that is also
 * the overlay's catch-up and, by its unique event key, the dedupe across instances.
 */

/** The streamer's switch and what the running server last reported (db/switched-features.ts). */
export type AlertChannel = SwitchedFeature;

const alertSwitch = switchedFeature("alertChannels");
export const readAlertChannel = alertSwitch.read;
/** Turns alerts on or off for an account (the state is then reported by the running server). */
export const setAlertsEnabled = alertSwitch.setEnabled;
/** Records the state of the account's alerts as the running server sees it. */
export const writeAlertState = alertSwitch.writeState;
/** Accounts whose streamer turned alerts on. */
export const listAlertEnabledAccounts = alertSwitch.listEnabled;

function toSettings(row: typeof alertSettings.$inferSelect): AlertSettings {
  return {
    enabled: row.enabled,
    template: row.template,
    minAmount: row.minAmount,
    durationSeconds: row.durationSeconds,
    volume: row.volume,
    imageId: row.imageId,
    soundId: row.soundId,
    chatMessage: row.chatMessage,
  };
}

/** Every type's settings, in ALERT_TYPES order; a type never saved has the defaults. */
export async function readAlertSettings(
  s: DataStore,
  accountId: number,
): Promise<Record<AlertType, AlertSettings>> {
  const rows = await s.all((db, t) =>
    db.select().from(t.alertSettings).where(eq(t.alertSettings.accountId, accountId)),
  );
  const stored = new Map(rows.map((row) => [row.type, toSettings(row)]));
  return Object.fromEntries(
    ALERT_TYPES.map((type) => [type, stored.get(type) ?? defaultAlertSettings(type)]),
  ) as Record<AlertType, AlertSettings>;
}

function checkType(type: AlertType): AlertType {
  if (!(ALERT_TYPES as readonly string[]).includes(type)) {
    throw invalidAlertInput("type", `An alert type is one of: ${ALERT_TYPES.join(", ")}.`);
  }
  return type;
}

/** Refuses an asset id that is not one of the account's own uploads of that kind. */
async function checkOwnAsset(
  s: DataStore,
  accountId: number,
  id: number | null | undefined,
  kind: AlertAssetKind,
  field: string,
): Promise<void> {
  if (id === null || id === undefined) return;
  const row = await s.first((db, t) =>
    db
      .select({ kind: t.alertAssets.kind })
      .from(t.alertAssets)
      .where(and(eq(t.alertAssets.accountId, accountId), eq(t.alertAssets.id, id)))
      .limit(1),
  );
  if (row?.kind !== kind) throw invalidAlertInput(field, `There is no uploaded ${kind} with id ${id}.`);
}

/**
 * Changes what `changes` names of a type's settings and keeps the rest (the defaults when the type was
 * never saved); refused (AlertDataError naming the field) when a value is invalid or an asset is not
 * the account's own of that kind. Answers the type's settings as now stored.
 */
export async function writeAlertSettings(
  s: DataStore,
  accountId: number,
  type: AlertType,
  changes: Partial<AlertSettings>,
  now: number,
): Promise<AlertSettings> {
  checkType(type);
  const set = checkAlertSettingsChanges(changes);
  return await s.transaction(async (tx) => {
    await checkOwnAsset(tx, accountId, set.imageId, "image", "imageId");
    await checkOwnAsset(tx, accountId, set.soundId, "sound", "soundId");
    const row = await tx.first((db, t) =>
      db
        .insert(t.alertSettings)
        .values({ ...defaultAlertSettings(type), ...set, accountId, type, updatedAt: now })
        .onConflictDoUpdate({
          target: [t.alertSettings.accountId, t.alertSettings.type],
          set: { ...set, updatedAt: now },
        })
        .returning(),
    );
    if (!row) throw new Error("the alert settings upsert returned no row");
    return toSettings(row);
  });
}

/** One alert as stored: the history row. */
export interface StoredAlertEvent {
  /** Grows with every alert of every account: the overlay's Last-Event-ID. */
  id: number;
  type: AlertType;
  eventKey: string;
  fields: AlertFields;
  test: boolean;
  /** When it was recorded (Unix ms). */
  at: number;
}

export interface NewAlertEvent {
  accountId: number;
  type: AlertType;
  /** The EventSub message id (or the event's own id), `test:<uuid>` for a test: unique per account. */
  eventKey: string;
  fields: AlertFields;
  test: boolean;
  at: number;
}

const EVENT_KEY_LENGTH = 200;
/** The largest id an integer column holds. */
const MAX_ID = 2_147_483_647;
/** Far above any real alert's fields (a message is ≤ 500 characters): refuses a runaway object. */
const FIELDS_JSON_LENGTH = 16_384;

function toEvent(row: typeof alertEvents.$inferSelect): StoredAlertEvent {
  return {
    id: row.id,
    type: row.type,
    eventKey: row.eventKey,
    fields: JSON.parse(row.fields) as AlertFields,
    test: row.test,
    at: row.createdAt,
  };
}

/**
 * The fields as JSON both databases keep: strings made well-formed and without NUL (PostgreSQL's jsonb
 * refuses both), refused when absurdly large.
 */
function fieldsJson(fields: AlertFields): string {
  const json = JSON.stringify(fields, (_key, value: unknown) =>
    typeof value === "string" ? value.toWellFormed().replaceAll("\u0000", "") : value,
  );
  if (typeof json !== "string" || !json.startsWith("{"))
    throw invalidAlertInput("fields", "An alert's fields are an object.");
  if (json.length > FIELDS_JSON_LENGTH)
    throw invalidAlertInput("fields", "An alert's fields are too large to keep.");
  return json;
}

function checkEventKey(key: string): string {
  if (
    typeof key !== "string" ||
    key === "" ||
    key.length > EVENT_KEY_LENGTH ||
    !key.isWellFormed() ||
    key.includes("\u0000")
  ) {
    throw invalidAlertInput("eventKey", `An alert's event key is 1 to ${EVENT_KEY_LENGTH} characters.`);
  }
  return key;
}

/**
 * Stores an alert, or answers null when the account already has one with this event key (Twitch
 * delivered it again, or another instance stored it first). Keeps the newest 200 real alerts of the
 * account and, apart, the newest 50 tests and replays.
 */
export async function recordAlertEvent(s: DataStore, event: NewAlertEvent): Promise<StoredAlertEvent | null> {
  const row = {
    accountId: event.accountId,
    type: checkType(event.type),
    eventKey: checkEventKey(event.eventKey),
    fields: fieldsJson(event.fields),
    test: event.test === true,
    createdAt: event.at,
  };
  return await s.transaction(async (tx) => {
    const added = await tx.first((db, t) =>
      db.insert(t.alertEvents).values(row).onConflictDoNothing().returning(),
    );
    if (!added) return null;
    await pruneAlertEvents(tx, event.accountId, row);
    return toEvent(added);
  });
}

/** The event key prefix of a replay the streamer asked for (server/alerts/present.ts uses it). */
export const ALERT_REPLAY_KEY_PREFIX = "replay:";

/** Whether an alert is staged (a test or a replay) rather than a new event from Twitch. */
const isStaged = (event: { test: boolean; eventKey: string }) =>
  event.test || event.eventKey.startsWith(ALERT_REPLAY_KEY_PREFIX);

/** The rows of the account's history in the same class as `event` (staged, or real). */
function sameClass(
  t: Tables,
  accountId: number,
  event: { test: boolean; eventKey: string },
): SQL | undefined {
  // substr, not LIKE: exact and case-sensitive on both databases.
  const prefix = ALERT_REPLAY_KEY_PREFIX;
  const staged = or(
    eq(t.alertEvents.test, true),
    sql`substr(${t.alertEvents.eventKey}, 1, ${prefix.length}) = ${prefix}`,
  );
  return and(eq(t.alertEvents.accountId, accountId), isStaged(event) ? staged : not(staged!));
}

/**
 * Deletes all but the newest alerts of `event`'s class: ALERT_LIMITS.eventsKept real ones and,
 * apart, ALERT_LIMITS.testEventsKept tests and replays, so a streamer trying alerts out never pushes
 * real follows and cheers out of the history.
 */
async function pruneAlertEvents(
  s: DataStore,
  accountId: number,
  event: { test: boolean; eventKey: string },
): Promise<void> {
  const kept = isStaged(event) ? ALERT_LIMITS.testEventsKept : ALERT_LIMITS.eventsKept;
  const oldestKept = await s.first((db, t) =>
    db
      .select({ id: t.alertEvents.id })
      .from(t.alertEvents)
      .where(sameClass(t, accountId, event))
      .orderBy(desc(t.alertEvents.id))
      .limit(1)
      .offset(kept - 1),
  );
  if (!oldestKept) return;
  await s.run((db, t) =>
    db.delete(t.alertEvents).where(and(sameClass(t, accountId, event), lt(t.alertEvents.id, oldestKept.id))),
  );
}

/** The alerts after `afterId` recorded at `sinceMs` or later, oldest first: an overlay's catch-up. */
export async function recentAlertEvents(
  s: DataStore,
  accountId: number,
  afterId: number,
  sinceMs: number,
): Promise<StoredAlertEvent[]> {
  const after = Number.isNaN(afterId) ? 0 : Math.min(Math.max(0, Math.floor(afterId)), MAX_ID);
  const since = Number.isSafeInteger(sinceMs) ? sinceMs : 0;
  const rows = await s.all((db, t) =>
    db
      .select()
      .from(t.alertEvents)
      .where(
        and(
          eq(t.alertEvents.accountId, accountId),
          gt(t.alertEvents.id, after),
          gte(t.alertEvents.createdAt, since),
        ),
      )
      .orderBy(asc(t.alertEvents.id)),
  );
  return rows.map(toEvent);
}

const HISTORY_KEPT = ALERT_LIMITS.eventsKept + ALERT_LIMITS.testEventsKept;

/** The account's latest alerts, newest first; `limit` is held to 1–250 (all that is kept). */
export async function alertHistory(
  s: DataStore,
  accountId: number,
  limit: number,
): Promise<StoredAlertEvent[]> {
  const n = Number.isSafeInteger(limit) ? Math.min(Math.max(limit, 1), HISTORY_KEPT) : 50;
  const rows = await s.all((db, t) =>
    db
      .select()
      .from(t.alertEvents)
      .where(eq(t.alertEvents.accountId, accountId))
      .orderBy(desc(t.alertEvents.id))
      .limit(n),
  );
  return rows.map(toEvent);
}

/** One of the account's alerts (for a replay), or null. */
export async function getAlertEvent(
  s: DataStore,
  accountId: number,
  id: number,
): Promise<StoredAlertEvent | null> {
  if (!Number.isSafeInteger(id) || id < 1 || id > MAX_ID) return null;
  const row = await s.first((db, t) =>
    db
      .select()
      .from(t.alertEvents)
      .where(and(eq(t.alertEvents.accountId, accountId), eq(t.alertEvents.id, id)))
      .limit(1),
  );
  return row ? toEvent(row) : null;
}
