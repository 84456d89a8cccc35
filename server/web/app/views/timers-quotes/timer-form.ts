// A timer's form, to add one or edit one: its name, the message, every how many minutes, after how
// many chat lines, and on/off. Each value is checked at its field, by the browser and by the server.
import { h } from "../../lib/dom.ts";
import { checkbox, type Field, field, numberInput } from "../../lib/form-fields.ts";
import { limitLength } from "../../lib/text-limit.ts";
import { itemForm } from "./item-form.ts";
import { TIMER_LIMITS, type TimerFields } from "./types.ts";

const NEW_TIMER: TimerFields = {
  name: "",
  message: "",
  intervalMinutes: TIMER_LIMITS.interval.default,
  minChatLines: TIMER_LIMITS.chatLines.default,
  enabled: true,
};

export interface TimerFormOptions {
  /** The timer being edited; none for a new one. */
  initial?: TimerFields;
  /** Sends the values; answers what was done, in a sentence. */
  save: (values: TimerFields) => Promise<string>;
  cancel?: () => void;
  label: string;
}

/** The inputs, and how to read them back as the API's fields. */
function timerInputs(initial: TimerFields, fields: Field[]): { parts: Node[]; values: () => TimerFields } {
  const { interval, chatLines } = TIMER_LIMITS;
  const name = h("input", {
    type: "text",
    value: initial.name,
    required: true,
    autocomplete: "off",
    spellcheck: "false",
  });
  const message = h("textarea", { rows: 2, required: true }, initial.message);
  const every = numberInput(initial.intervalMinutes, interval.min, interval.max);
  const lines = numberInput(initial.minChatLines, chatLines.min, chatLines.max);
  const enabled = checkbox(initial.enabled);
  const parts = [
    field("name", "Name", name, fields, limitLength(name, TIMER_LIMITS.nameLength, { oneLine: true })),
    field(
      "message",
      "Message",
      message,
      fields,
      h("span", {}, "One chat line. ", limitLength(message, TIMER_LIMITS.textLength, { oneLine: true })),
    ),
    h(
      "div",
      { class: "field-row" },
      field(
        "intervalMinutes",
        "Every (minutes)",
        every,
        fields,
        h("span", {}, `${interval.min} to ${interval.max}`),
      ),
      field(
        "minChatLines",
        "After chat lines",
        lines,
        fields,
        h("span", {}, `since its last post, ${chatLines.min} to ${chatLines.max}`),
      ),
    ),
    h("label", { class: "check" }, enabled, " On"),
  ];
  return {
    parts,
    values: () => ({
      name: name.value.trim(),
      message: message.value.trim(),
      intervalMinutes: every.valueAsNumber,
      minChatLines: lines.valueAsNumber,
      enabled: enabled.checked,
    }),
  };
}

export function timerForm(options: TimerFormOptions): HTMLFormElement {
  const fields: Field[] = [];
  const inputs = timerInputs(options.initial ?? NEW_TIMER, fields);
  return itemForm({
    parts: inputs.parts,
    fields,
    submitLabel: options.initial ? "Save" : "Add the timer",
    save: () => options.save(inputs.values()),
    cancel: options.cancel,
    nameField: "name",
    label: options.label,
    resetAfterSave: !options.initial,
  });
}
