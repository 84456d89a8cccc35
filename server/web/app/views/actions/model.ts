// What the Actions and Deck views read from the panel API (server/panel/actions.ts, action-runs.ts)
// and the words they show for it: each trigger and step type as a streamer reads it, and one line
// saying what an action's trigger is.
import { ACTION_LIMITS, type ActionAlertKind } from "../../../../vocabulary.ts";
import type { ActionStep, ActionTrigger, StepType, TriggerType } from "../../lib/types.ts";
import { LEVEL_BADGES } from "../custom-commands/model.ts";

export { ACTION_ALERT_KINDS } from "../../../../vocabulary.ts";
export const LIMITS = ACTION_LIMITS;

export const API = "/api/dashboard/actions";
export const actionPath = (id: number) => `${API}/${id}`;

export const TRIGGER_TEXT: Readonly<Record<TriggerType, string>> = {
  command: "A chat command",
  alert: "An alert",
  stream: "The stream starting or ending",
  button: "A button (the Deck)",
};

/** What set a run off, in its run log. */
export const CAUSE_TEXT: Readonly<Record<TriggerType, string>> = {
  command: "Chat command",
  alert: "Alert",
  stream: "Stream",
  button: "Button",
};

export const STEP_TEXT: Readonly<Record<StepType, string>> = {
  "obs.scene": "Switch OBS's scene",
  "obs.source": "Show or hide a source",
  "obs.text": "Set a text source's text",
  "obs.media": "Restart or stop a media source",
  chat: "Say a line in chat",
  wait: "Wait",
};

/** The kinds, and what their amount (`min`) counts, if anything. */
export const ALERT_KIND_TEXT: Readonly<Record<ActionAlertKind, { label: string; amount: string | null }>> = {
  follow: { label: "Follow", amount: null },
  sub: { label: "Subscription", amount: null },
  resub: { label: "Resubscription", amount: "months" },
  gift: { label: "Gifted subs", amount: "gifted subs" },
  cheer: { label: "Cheer", amount: "bits" },
  raid: { label: "Raid", amount: "viewers" },
  redemption: { label: "Channel points redemption", amount: null },
};

/** Each type's keys, in the order the picker lists them (its own words above). */
export const TRIGGER_TYPES = Object.keys(TRIGGER_TEXT) as TriggerType[];
export const STEP_TYPES = Object.keys(STEP_TEXT) as StepType[];

/** A new trigger of `type`, with the form's defaults. */
export function newTrigger(type: TriggerType): ActionTrigger {
  if (type === "command") return { type, command: "", level: "moderator" };
  if (type === "alert") return { type, kind: "raid", min: 1, reward: null };
  if (type === "stream") return { type, state: "online" };
  return { type: "button" };
}

/** A new step of `type`, empty where the streamer must fill it. */
export function newStep(type: StepType): ActionStep {
  switch (type) {
    case "obs.scene":
      return { type, scene: "" };
    case "obs.source":
      return { type, scene: "", source: "", visible: true, seconds: 5 };
    case "obs.text":
      return { type, source: "", text: "" };
    case "obs.media":
      return { type, source: "", action: "restart" };
    case "chat":
      return { type, text: "" };
    case "wait":
      return { type, seconds: 5 };
  }
}

/** One line saying what sets the action off: "!brb from moderators+", "Raid of 5+ viewers". */
export function triggerSummary(trigger: ActionTrigger): string {
  switch (trigger.type) {
    case "command":
      return `!${trigger.command} from ${LEVEL_BADGES[trigger.level]}`;
    case "alert": {
      const kind = ALERT_KIND_TEXT[trigger.kind];
      if (trigger.kind === "redemption" && trigger.reward) return `Redemption of “${trigger.reward}”`;
      return kind.amount && trigger.min > 1 ? `${kind.label} of ${trigger.min}+ ${kind.amount}` : kind.label;
    }
    case "stream":
      return trigger.state === "online" ? "Stream goes online" : "Stream goes offline";
    case "button":
      return "Button";
  }
}
