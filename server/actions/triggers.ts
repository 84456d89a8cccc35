import type { StreamState } from "../live/stream-state.ts";
import type { AlertFields, AlertType } from "../vocabulary.ts";
import type { ActionAlertKind, ActionTrigger, RunCause } from "./model.ts";

/*
 * Which events set off which actions (CONTRACT §6 "Actions", Triggers). Pure: the live feature
 * (actions/live.ts) hands it what the hooks tell.
 */

/** The alerts' type as a trigger names it (the contract's words: `sub` is the alerts' `subscribe`). */
const KIND_OF: Readonly<Record<AlertType, ActionAlertKind>> = {
  follow: "follow",
  subscribe: "sub",
  resub: "resub",
  gift: "gift",
  cheer: "cheer",
  raid: "raid",
  redemption: "redemption",
};

/** The kinds whose amount a trigger's `min` counts (bits, gifted subs, raid viewers, resub months). */
const COUNTED: ReadonlySet<ActionAlertKind> = new Set<ActionAlertKind>(["cheer", "gift", "raid", "resub"]);

const sameTitle = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Whether an alert event of `type` with `fields` sets off an action with `trigger`. */
export function alertSetsOff(trigger: ActionTrigger, type: AlertType, fields: AlertFields): boolean {
  if (trigger.type !== "alert") return false;
  const kind = KIND_OF[type];
  if (trigger.kind !== kind) return false;
  if (COUNTED.has(kind) && trigger.min > 0 && (fields.amount === null || fields.amount < trigger.min))
    return false;
  if (kind !== "redemption" || trigger.reward === null || trigger.reward.trim() === "") return true;
  return fields.reward !== null && sameTitle(fields.reward, trigger.reward);
}

/** What an alert event fills the placeholders with. */
export function alertCause(fields: AlertFields): RunCause {
  return {
    trigger: "alert",
    user: fields.user,
    amount: fields.amount,
    reward: fields.reward,
    message: fields.message,
  };
}

/**
 * Whether a stream state heard is a transition from the last one heard: a first online or offline,
 * a change, or a new stream (another start); the same event again is none, and "not known any more"
 * (null) is no event.
 */
export function streamTransition(before: StreamState | null, after: StreamState | null): boolean {
  if (after === null) return false;
  if (before === null || before.live !== after.live) return true;
  return after.live && before.since !== after.since;
}

/** Whether a stream trigger fires for the stream going to `live`. */
export function streamSetsOff(trigger: ActionTrigger, live: boolean): boolean {
  return trigger.type === "stream" && trigger.state === (live ? "online" : "offline");
}

/** What a stream event fills the placeholders with: the streamer. */
export function streamCause(streamer: string): RunCause {
  return { trigger: "stream", user: streamer, amount: null, reward: null, message: null };
}
