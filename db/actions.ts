import { and, asc, count, desc, eq, notInArray } from "drizzle-orm";
import { ACTION_LIMITS } from "../server/vocabulary.ts";
import { isRowKey } from "./chat-bot-rules.ts";
import type { DataStore } from "./data-store.ts";
import type { actionRuns, actions } from "./sqlite/schema.ts";

/**
 * The streamer's actions in the store (issue 37): name, switch, cooldown, and the trigger and steps
 * as JSON the store keeps as written (the routes checked them; the feature
 * names their types: server/actions/store.ts), how the last run ended, and each action's run log
 * (the newest `ACTION_LIMITS.runsKept` runs). Deleted with the account, a run log with its action.
 */

/** What the streamer saves; `trigger` and `steps` are JSON values. */
export interface ActionFields {
  name: string;
  enabled: boolean;
  cooldownSeconds: number;
  trigger: unknown;
  steps: readonly unknown[];
}

export interface LastRunRow {
  at: number;
  ok: boolean;
  error: string | null;
}

export interface ActionRow extends ActionFields {
  id: number;
  steps: unknown[];
  lastRun: LastRunRow | null;
}

/** One finished run; `steps` is JSON (each step's outcome). */
export interface ActionRunRow {
  actionId: number;
  at: number;
  ok: boolean;
  cause: string;
  user: string;
  steps: readonly unknown[];
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

const list = (text: string): unknown[] => {
  const value = parsed(text);
  return Array.isArray(value) ? value : [];
};

function actionOf(row: typeof actions.$inferSelect): ActionRow {
  const ran = row.lastRunAt !== null && row.lastRunOk !== null;
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled,
    cooldownSeconds: row.cooldownSeconds,
    trigger: parsed(row.trigger),
    steps: list(row.steps),
    lastRun: ran ? { at: row.lastRunAt ?? 0, ok: row.lastRunOk ?? false, error: row.lastRunError } : null,
  };
}

function columnsOf(fields: ActionFields) {
  return {
    name: fields.name,
    enabled: fields.enabled,
    cooldownSeconds: fields.cooldownSeconds,
    trigger: JSON.stringify(fields.trigger),
    steps: JSON.stringify(fields.steps),
  };
}

const mine = (
  t: { accountId: typeof actions.accountId; id: typeof actions.id },
  accountId: number,
  id: number,
) => and(eq(t.accountId, accountId), eq(t.id, id));

/** Every action of the account, in the order they were added. */
export async function listActionRows(s: DataStore, accountId: number): Promise<ActionRow[]> {
  const rows = await s.all((db, t) =>
    db.select().from(t.actions).where(eq(t.actions.accountId, accountId)).orderBy(asc(t.actions.id)),
  );
  return rows.map(actionOf);
}

/** The account's action of that id; null when it has none (or the id cannot be one). */
export async function readActionRow(s: DataStore, accountId: number, id: number): Promise<ActionRow | null> {
  if (!isRowKey(id)) return null;
  const row = await s.first((db, t) =>
    db
      .select()
      .from(t.actions)
      .where(mine(t.actions, accountId, id))
      .limit(1),
  );
  return row ? actionOf(row) : null;
}

/** Adds an action; null when the account already has `ACTION_LIMITS.perAccount`. */
export function createActionRow(
  s: DataStore,
  accountId: number,
  fields: ActionFields,
  now: number,
): Promise<ActionRow | null> {
  return s.transaction(async (tx) => {
    const existing = await tx.first((db, t) =>
      db.select({ n: count() }).from(t.actions).where(eq(t.actions.accountId, accountId)),
    );
    if ((existing?.n ?? 0) >= ACTION_LIMITS.perAccount) return null;
    const row = await tx.first((db, t) =>
      db
        .insert(t.actions)
        .values({ accountId, ...columnsOf(fields), createdAt: now, updatedAt: now })
        .returning(),
    );
    return row ? actionOf(row) : null;
  });
}

/** Replaces the action's fields whole (its last run and run log stay); null when there is no such action. */
export async function replaceActionRow(
  s: DataStore,
  accountId: number,
  id: number,
  fields: ActionFields,
  now: number,
): Promise<ActionRow | null> {
  if (!isRowKey(id)) return null;
  const row = await s.first((db, t) =>
    db
      .update(t.actions)
      .set({ ...columnsOf(fields), updatedAt: now })
      .where(mine(t.actions, accountId, id))
      .returning(),
  );
  return row ? actionOf(row) : null;
}

/** Whether there was such an action to delete (its run log goes with it). */
export async function deleteActionRow(s: DataStore, accountId: number, id: number): Promise<boolean> {
  if (!isRowKey(id)) return false;
  const row = await s.first((db, t) =>
    db
      .delete(t.actions)
      .where(mine(t.actions, accountId, id))
      .returning({ id: t.actions.id }),
  );
  return row !== undefined;
}

/**
 * Records a finished run: the action's last run, and one more entry in its run log, of which the
 * newest `ACTION_LIMITS.runsKept` stay. False when the action is gone (deleted during the run).
 */
export function recordActionRunRow(
  s: DataStore,
  accountId: number,
  run: ActionRunRow,
  error: string | null,
): Promise<boolean> {
  if (!isRowKey(run.actionId)) return Promise.resolve(false);
  return s.transaction(async (tx) => {
    const action = await tx.first((db, t) =>
      db
        .update(t.actions)
        .set({ lastRunAt: run.at, lastRunOk: run.ok, lastRunError: run.ok ? null : error })
        .where(mine(t.actions, accountId, run.actionId))
        .returning({ id: t.actions.id }),
    );
    if (!action) return false;
    const { actionId, at, ok, cause, user } = run;
    await tx.run((db, t) =>
      db
        .insert(t.actionRuns)
        .values({ actionId, accountId, at, ok, cause, user, steps: JSON.stringify(run.steps) }),
    );
    await tx.run((db, t) =>
      db
        .delete(t.actionRuns)
        .where(
          and(
            eq(t.actionRuns.actionId, actionId),
            notInArray(
              t.actionRuns.id,
              db
                .select({ id: t.actionRuns.id })
                .from(t.actionRuns)
                .where(eq(t.actionRuns.actionId, actionId))
                .orderBy(desc(t.actionRuns.id))
                .limit(ACTION_LIMITS.runsKept),
            ),
          ),
        ),
    );
    return true;
  });
}

function runOf(row: typeof actionRuns.$inferSelect): ActionRunRow {
  return {
    actionId: row.actionId,
    at: row.at,
    ok: row.ok,
    cause: row.cause,
    user: row.user,
    steps: list(row.steps),
  };
}

/** The action's newest `limit` runs, newest first (none for another account's action). */
export async function listActionRunRows(
  s: DataStore,
  accountId: number,
  actionId: number,
  limit: number = ACTION_LIMITS.runsKept,
): Promise<ActionRunRow[]> {
  if (!isRowKey(actionId)) return [];
  const rows = await s.all((db, t) =>
    db
      .select()
      .from(t.actionRuns)
      .where(and(eq(t.actionRuns.accountId, accountId), eq(t.actionRuns.actionId, actionId)))
      .orderBy(desc(t.actionRuns.id))
      .limit(limit),
  );
  return rows.map(runOf);
}

function commandOf(trigger: unknown): string | null {
  if (typeof trigger !== "object" || trigger === null) return null;
  const { type, command } = trigger as { type?: unknown; command?: unknown };
  return type === "command" && typeof command === "string" ? command : null;
}

/**
 * The chat commands the account's actions answer (their command triggers', on or off): custom
 * commands cannot take these names (server/custom/, the dashboard), as they cannot a built-in's.
 */
export async function listActionCommandNames(s: DataStore, accountId: number): Promise<Set<string>> {
  const rows = await s.all((db, t) =>
    db.select({ trigger: t.actions.trigger }).from(t.actions).where(eq(t.actions.accountId, accountId)),
  );
  return new Set(rows.map((row) => commandOf(parsed(row.trigger))).filter((name) => name !== null));
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The account's actions for the export, each with its run log (newest first); times as ISO 8601. */
export async function readActionsExport(s: DataStore, accountId: number) {
  const [rows, runs] = await Promise.all([
    s.all((db, t) =>
      db.select().from(t.actions).where(eq(t.actions.accountId, accountId)).orderBy(asc(t.actions.id)),
    ),
    s.all((db, t) =>
      db
        .select()
        .from(t.actionRuns)
        .where(eq(t.actionRuns.accountId, accountId))
        .orderBy(desc(t.actionRuns.id)),
    ),
  ]);
  return rows.map((row) => {
    const { lastRun, ...action } = actionOf(row);
    return {
      ...action,
      lastRun: lastRun && { ...lastRun, at: iso(lastRun.at) },
      createdAt: iso(row.createdAt),
      updatedAt: iso(row.updatedAt),
      runs: runs
        .filter((run) => run.actionId === row.id)
        .map(({ at, ok, cause, user, steps }) => ({ at: iso(at), ok, cause, user, steps: list(steps) })),
    };
  });
}
