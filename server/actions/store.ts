import {
  type ActionRow,
  type ActionRunRow,
  createActionRow,
  deleteActionRow,
  listActionRows,
  listActionRunRows,
  readActionRow,
  recordActionRunRow,
  replaceActionRow,
} from "../../db/actions.ts";
import type { DataStore } from "../../db/data-store.ts";
import type { Action, ActionInput, ActionRun, ActionStep, ActionTrigger, StepOutcome } from "./model.ts";

/*
 * An account's actions and their run logs in the model's types, over the store (db/actions.ts keeps
 * the trigger and steps as the JSON it was given: only checked input reaches it).
 */

const actionOf = (row: ActionRow): Action => ({
  ...row,
  trigger: row.trigger as ActionTrigger,
  steps: row.steps as ActionStep[],
});

const runOf = (row: ActionRunRow): ActionRun => ({
  ...row,
  cause: row.cause as ActionRun["cause"],
  steps: row.steps as StepOutcome[],
});

/** Every action of the account, in the order they were added. */
export async function listActions(s: DataStore, accountId: number): Promise<Action[]> {
  return (await listActionRows(s, accountId)).map(actionOf);
}

/** The account's action of that id, or null. */
export async function readAction(s: DataStore, accountId: number, id: number): Promise<Action | null> {
  const row = await readActionRow(s, accountId, id);
  return row && actionOf(row);
}

/** Adds a checked action; null when the account has the most it may keep (ACTION_LIMITS.perAccount). */
export async function createAction(
  s: DataStore,
  accountId: number,
  input: ActionInput,
  now: number,
): Promise<Action | null> {
  const row = await createActionRow(s, accountId, input, now);
  return row && actionOf(row);
}

/** Replaces the action whole (its last run and run log stay); null when the account has no such action. */
export async function replaceAction(
  s: DataStore,
  accountId: number,
  id: number,
  input: ActionInput,
  now: number,
): Promise<Action | null> {
  const row = await replaceActionRow(s, accountId, id, input, now);
  return row && actionOf(row);
}

/** Whether there was such an action to delete. */
export function deleteAction(s: DataStore, accountId: number, id: number): Promise<boolean> {
  return deleteActionRow(s, accountId, id);
}

/**
 * Records a finished run: the action's `lastRun` (its error the failed step's, null after a success)
 * and the run log, which keeps the newest 50. False when the action was deleted meanwhile.
 */
export function recordActionRun(s: DataStore, accountId: number, run: ActionRun): Promise<boolean> {
  const failed = run.ok ? undefined : run.steps.findLast((step) => !step.ok);
  return recordActionRunRow(s, accountId, run, run.ok ? null : (failed?.error ?? "The run failed."));
}

/** The action's newest runs, newest first. */
export async function listActionRuns(
  s: DataStore,
  accountId: number,
  actionId: number,
  limit?: number,
): Promise<ActionRun[]> {
  return (await listActionRunRows(s, accountId, actionId, limit)).map(runOf);
}
