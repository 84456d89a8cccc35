// The Actions form, adding an action or editing one: its name, on or off, its cooldown, the trigger
// (trigger.ts) and the ordered steps (steps.ts). The browser checks what it can at the field; the
// server's 400 lands at the field whose path it names (`steps.1.scene`), else beside the Save button;
// what was typed stays after a refusal.
import { sendData } from "../../lib/api.ts";
import { h } from "../../lib/dom.ts";
import {
  checkbox,
  type Field,
  field,
  numberInput,
  showServerError,
  textInput,
} from "../../lib/form-fields.ts";
import { handleSave } from "../../lib/form-save.ts";
import type { Action, ActionInput } from "../../lib/types.ts";
import { API, actionPath, LIMITS, newTrigger } from "./model.ts";
import { stepsEditor } from "./steps.ts";
import { triggerEditor } from "./trigger.ts";

export interface FormOptions {
  /** The action edited; a new one is added when absent. */
  action?: Action;
  onSaved(saved: Action): void;
  onCancel?(): void;
}

const BLANK: ActionInput = {
  name: "",
  enabled: true,
  cooldownSeconds: 0,
  trigger: newTrigger("button"),
  steps: [{ type: "obs.scene", scene: "" }],
};

/**
 * The API names a field as `steps[1].scene` or `steps.1.scene`; the form's paths are the dotted one.
 * A message naming it is placed at it by lib/form-fields.ts (`field "…"`, or the path ahead of it).
 */
function dotted(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  error.message = error.message.replace(/\[(\d+)\]/g, ".$1");
  return error;
}

export function actionForm(options: FormOptions): HTMLFormElement {
  const start = options.action ?? BLANK;
  const baseFields: Field[] = [];
  const name = textInput(start.name, LIMITS.nameLength, {
    id: "action-name",
    required: true,
    placeholder: "Raid welcome",
  });
  const enabled = checkbox(start.enabled);
  enabled.id = "action-enabled";
  const cooldown = numberInput(start.cooldownSeconds, LIMITS.cooldownSeconds.min, LIMITS.cooldownSeconds.max);
  const trigger = triggerEditor(start.trigger);
  const steps = stepsEditor(start.steps);
  const fields = () => [...baseFields, ...trigger.fields(), ...steps.fields()];
  const status = h("p", { class: "save-status", role: "status", id: "action-form-status" });
  const submit = h(
    "button",
    { type: "submit", id: "action-save" },
    options.action ? "Save changes" : "Add action",
  );
  const form = h(
    "form",
    { class: "action-form", novalidate: true },
    h(
      "div",
      { class: "field-row" },
      field("name", "Name", name, baseFields),
      field(
        "cooldownSeconds",
        "Cooldown (seconds)",
        cooldown,
        baseFields,
        document.createTextNode(`0 to ${LIMITS.cooldownSeconds.max}; a trigger meanwhile does nothing`),
      ),
    ),
    h("label", { class: "check" }, enabled, " On: its trigger runs it"),
    trigger.element,
    steps.element,
    h(
      "div",
      { class: "row" },
      submit,
      options.onCancel
        ? h("button", { type: "button", class: "secondary", onclick: () => options.onCancel?.() }, "Cancel")
        : null,
    ),
    status,
  );
  handleSave(form, {
    submit,
    status,
    fields,
    async save() {
      const body: ActionInput = {
        name: name.value.trim(),
        enabled: enabled.checked,
        cooldownSeconds: cooldown.valueAsNumber,
        trigger: trigger.read(),
        steps: steps.read(),
      };
      const saved = options.action
        ? await sendData<Action>("PUT", actionPath(options.action.id), body)
        : await sendData<Action>("POST", API, body);
      options.onSaved(saved);
      return options.action
        ? { shown: "Saved.", said: `${saved.name} saved.` }
        : { shown: `${saved.name} added.` };
    },
    refused: (error) => showServerError(dotted(error), status, fields()),
  });
  return form;
}
