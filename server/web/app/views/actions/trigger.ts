// The trigger part of the Actions form: its type, then that type's fields (a chat command and the
// level allowed to use it; an alert's kind with its minimum amount and a reward's title; the stream
// going online or offline; a button has none). Fields are registered under `trigger.<key>`.
import { USER_LEVELS } from "../../../../vocabulary.ts";
import { fill, h } from "../../lib/dom.ts";
import { type Field, field, numberInput, textInput } from "../../lib/form-fields.ts";
import type { ActionTrigger, TriggerType } from "../../lib/types.ts";
import { levelSelect, selectField } from "../custom-commands/fields.ts";
import {
  ACTION_ALERT_KINDS,
  ALERT_KIND_TEXT,
  LIMITS,
  newTrigger,
  TRIGGER_TEXT,
  TRIGGER_TYPES,
} from "./model.ts";

export interface TriggerEditor {
  element: HTMLElement;
  read(): ActionTrigger;
  fields(): Field[];
}

function options<T extends string>(
  values: readonly T[],
  label: (value: T) => string,
  chosen: T,
): HTMLSelectElement {
  return h(
    "select",
    {},
    values.map((value) => h("option", { value, selected: value === chosen }, label(value))),
  );
}

type Drawn = { parts: HTMLElement[]; read(): ActionTrigger };

function commandFields(trigger: Extract<ActionTrigger, { type: "command" }>, fields: Field[]): Drawn {
  const command = textInput(trigger.command === "" ? "" : `!${trigger.command}`, 33, {
    placeholder: "!brb",
    spellcheck: "false",
    required: true,
  });
  const level = levelSelect(trigger.level);
  level.id = "action-trigger-level";
  return {
    parts: [
      h(
        "div",
        { class: "field-row" },
        field(
          "trigger.command",
          "Chat command",
          command,
          fields,
          document.createTextNode("a name no built-in or custom command has"),
        ),
        selectField("Who can use it", level, "and everyone above; nobody else's line does anything"),
      ),
    ],
    read: () => ({
      type: "command",
      command: command.value.trim().replace(/^!/, "").toLowerCase(),
      level: USER_LEVELS.find((l) => l === level.value) ?? "moderator",
    }),
  };
}

function alertFields(trigger: Extract<ActionTrigger, { type: "alert" }>, fields: Field[]): Drawn {
  const kind = options(ACTION_ALERT_KINDS, (k) => ALERT_KIND_TEXT[k].label, trigger.kind);
  kind.id = "action-trigger-kind";
  const min = numberInput(trigger.min, 0, 2_147_483_647);
  const reward = textInput(trigger.reward ?? "", LIMITS.rewardLength, { placeholder: "any reward" });
  const minField = field("trigger.min", "At least", min, fields, document.createTextNode(""));
  const rewardField = field(
    "trigger.reward",
    "Reward title (optional)",
    reward,
    fields,
    document.createTextNode("empty: any reward"),
  );
  const minHint = minField.querySelector(".hint")!;
  const shown = () => {
    const amount = ALERT_KIND_TEXT[kind.value as keyof typeof ALERT_KIND_TEXT]?.amount ?? null;
    minField.hidden = amount === null;
    // Hidden, it is not checked either (an emptied one would block the save at a field out of sight).
    min.disabled = amount === null;
    minHint.textContent = amount ? `${amount}, each event` : "";
    rewardField.hidden = kind.value !== "redemption";
  };
  kind.addEventListener("change", shown);
  shown();
  return {
    parts: [
      h(
        "div",
        { class: "field-row" },
        selectField("Alert", kind, "needs alerts on (the Alerts view)"),
        minField,
      ),
      rewardField,
    ],
    read: () => ({
      type: "alert",
      kind: ACTION_ALERT_KINDS.find((k) => k === kind.value) ?? "raid",
      min: Number.isNaN(min.valueAsNumber) ? 0 : min.valueAsNumber,
      reward: kind.value === "redemption" && reward.value.trim() !== "" ? reward.value.trim() : null,
    }),
  };
}

function streamFields(trigger: Extract<ActionTrigger, { type: "stream" }>): Drawn {
  const state = options(
    ["online", "offline"] as const,
    (s) => (s === "online" ? "Goes online" : "Goes offline"),
    trigger.state,
  );
  return {
    parts: [selectField("When the stream", state)],
    read: () => ({ type: "stream", state: state.value === "offline" ? "offline" : "online" }),
  };
}

function drawTrigger(trigger: ActionTrigger, fields: Field[]): Drawn {
  switch (trigger.type) {
    case "command":
      return commandFields(trigger, fields);
    case "alert":
      return alertFields(trigger, fields);
    case "stream":
      return streamFields(trigger);
    case "button":
      return {
        parts: [h("p", { class: "hint" }, "Runs only when you press its button on the Deck or Run now.")],
        read: () => ({ type: "button" }),
      };
  }
}

export function triggerEditor(initial: ActionTrigger): TriggerEditor {
  let fields: Field[] = [];
  const type = options(TRIGGER_TYPES, (t) => TRIGGER_TEXT[t], initial.type);
  type.id = "action-trigger-type";
  const box = h("div", { class: "action-trigger-fields" });
  let drawn: Drawn;
  const draw = (trigger: ActionTrigger) => {
    fields = [];
    drawn = drawTrigger(trigger, fields);
    fill(box, drawn.parts);
  };
  type.addEventListener("change", () => draw(newTrigger(type.value as TriggerType)));
  draw(initial);
  const element = h(
    "fieldset",
    { class: "action-trigger" },
    h("legend", {}, "When"),
    selectField("Trigger", type),
    box,
  );
  return { element, read: () => drawn.read(), fields: () => fields };
}
