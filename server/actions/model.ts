import type { ObsStep } from "../obs/steps.ts";
import type { ActionAlertKind, UserLevel } from "../vocabulary.ts";

/*
 * An action (CONTRACT §6 "Actions"): when its trigger fires, its steps run in order, one run at a
 * time, then a cooldown. Shared by the store, the routes, the runner and the triggers.
 */

// The alert kinds a trigger names are the vocabulary's (the dashboard lists them too).
export { ACTION_ALERT_KINDS, type ActionAlertKind } from "../vocabulary.ts";

export type ActionTrigger =
  | { type: "command"; command: string; level: UserLevel }
  | { type: "alert"; kind: ActionAlertKind; min: number; reward: string | null }
  | { type: "stream"; state: "online" | "offline" }
  | { type: "button" };

export type ActionStep = ObsStep | { type: "chat"; text: string } | { type: "wait"; seconds: number };

/** What the streamer saves (POST, and PUT replaces it whole). */
export interface ActionInput {
  name: string;
  enabled: boolean;
  cooldownSeconds: number;
  trigger: ActionTrigger;
  steps: ActionStep[];
}

/** How the last run ended: `error` null after a success. */
export interface ActionLastRun {
  at: number;
  ok: boolean;
  error: string | null;
}

export interface Action extends ActionInput {
  id: number;
  lastRun: ActionLastRun | null;
}

/** One step of a run as the run route and the run log report it. */
export interface StepOutcome {
  type: ActionStep["type"];
  ok: boolean;
  error: string | null;
}

/** What set a run off, for the text placeholders: `{user}`, `{amount}`, `{reward}`, `{message}`. */
export interface RunCause {
  /** `button`, `command`, `alert` or `stream`. */
  trigger: ActionTrigger["type"];
  user: string;
  amount: number | null;
  reward: string | null;
  message: string | null;
}

/** A finished run, kept in the run log. */
export interface ActionRun {
  actionId: number;
  at: number;
  ok: boolean;
  cause: ActionTrigger["type"];
  user: string;
  steps: StepOutcome[];
}
