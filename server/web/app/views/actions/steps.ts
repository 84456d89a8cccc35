// The ordered steps of the Actions form: each step its type and fields (scene and source names with
// pickers filled from OBS's own lists, any name typed accepted while OBS is off), moved up or down,
// removed, and a new one added at the end. Each field is registered under its API path
// (`steps.2.scene`), so the server's 400 lands at it.
import { h, uid } from "../../lib/dom.ts";
import { type Field, field, numberInput, textInput } from "../../lib/form-fields.ts";
import type { ActionStep, StepType } from "../../lib/types.ts";
import { selectField } from "../custom-commands/fields.ts";
import { LIMITS, newStep, STEP_TEXT, STEP_TYPES } from "./model.ts";

/** The datalists the name inputs point at (filled by the view from GET /api/dashboard/obs). */
export const SCENE_NAMES = "action-scene-names";
export const SOURCE_NAMES = "action-source-names";

const PLACEHOLDERS = "{user}, {amount}, {reward} and {message} are filled in from the event.";

interface Row {
  element: HTMLElement;
  read(): ActionStep;
}

function select<T extends string>(
  values: readonly T[],
  labels: Record<T, string>,
  chosen: T,
): HTMLSelectElement {
  return h(
    "select",
    {},
    values.map((value) => h("option", { value, selected: value === chosen }, labels[value])),
  );
}

function nameInput(value: string, list: string): HTMLInputElement {
  return textInput(value, LIMITS.obsNameLength, { list, spellcheck: "false", required: true });
}

function textLine(value: string): HTMLInputElement {
  return textInput(value, LIMITS.textLength, { required: true });
}

/** The inputs of one step of its type, registered in `fields` under `steps.<index>.<key>`. */
function stepFields(
  step: ActionStep,
  at: string,
  fields: Field[],
): { parts: HTMLElement[]; read(): ActionStep } {
  const named = (key: string, label: string, input: HTMLInputElement | HTMLTextAreaElement, hint?: string) =>
    field(`${at}.${key}`, label, input, fields, hint ? document.createTextNode(hint) : undefined);
  switch (step.type) {
    case "obs.scene": {
      const scene = nameInput(step.scene, SCENE_NAMES);
      return {
        parts: [named("scene", "Scene", scene)],
        read: () => ({ type: step.type, scene: scene.value.trim() }),
      };
    }
    case "obs.source": {
      const scene = nameInput(step.scene, SCENE_NAMES);
      const source = nameInput(step.source, SOURCE_NAMES);
      const visible = select(
        ["show", "hide"],
        { show: "Show it", hide: "Hide it" },
        step.visible ? "show" : "hide",
      );
      const seconds = h("input", {
        type: "number",
        inputmode: "numeric",
        min: 1,
        max: LIMITS.sourceSeconds,
        step: "any",
        value: step.seconds ?? "",
      });
      return {
        parts: [
          h(
            "div",
            { class: "field-row" },
            named("scene", "In scene", scene),
            named("source", "Source", source),
          ),
          h(
            "div",
            { class: "field-row" },
            selectField("Show or hide", visible),
            named("seconds", "Back after (seconds)", seconds, "empty: it stays so"),
          ),
        ],
        read: () => {
          const read: ActionStep = {
            type: step.type,
            scene: scene.value.trim(),
            source: source.value.trim(),
            visible: visible.value === "show",
          };
          return Number.isNaN(seconds.valueAsNumber) ? read : { ...read, seconds: seconds.valueAsNumber };
        },
      };
    }
    case "obs.text": {
      const source = nameInput(step.source, SOURCE_NAMES);
      // A text source may be emptied and may span lines (the server keeps both): a text box, not required.
      const text = h("textarea", { rows: 2, maxlength: LIMITS.textLength, spellcheck: "true" }, step.text);
      return {
        parts: [named("source", "Text source", source), named("text", "Text", text, PLACEHOLDERS)],
        read: () => ({ type: step.type, source: source.value.trim(), text: text.value }),
      };
    }
    case "obs.media": {
      const source = nameInput(step.source, SOURCE_NAMES);
      const action = select(["restart", "stop"] as const, { restart: "Restart", stop: "Stop" }, step.action);
      return {
        parts: [
          h(
            "div",
            { class: "field-row" },
            named("source", "Media source", source),
            selectField("What", action),
          ),
        ],
        read: () => ({
          type: step.type,
          source: source.value.trim(),
          action: action.value === "stop" ? "stop" : "restart",
        }),
      };
    }
    case "chat": {
      const text = textLine(step.text);
      return {
        parts: [named("text", "Chat line", text, PLACEHOLDERS)],
        read: () => ({ type: step.type, text: text.value }),
      };
    }
    case "wait": {
      // Fractions as the server takes them (a wait of 2.5 s saved through the API saves again unchanged).
      const seconds = numberInput(step.seconds, 0.1, LIMITS.waitSeconds);
      seconds.step = "any";
      return {
        parts: [named("seconds", "Seconds", seconds, `up to ${LIMITS.waitSeconds}, fractions too`)],
        read: () => ({ type: step.type, seconds: seconds.valueAsNumber }),
      };
    }
  }
}

export interface StepsEditor {
  element: HTMLElement;
  read(): ActionStep[];
  /** The fields of the steps as drawn now. */
  fields(): Field[];
}

export function stepsEditor(initial: ActionStep[]): StepsEditor {
  let fields: Field[] = [];
  let rows: Row[] = [];
  const list = h("ol", { class: "action-steps" });
  const count = () => rows.length;
  const draw = (steps: ActionStep[], focus?: { index: number; control: string }) => {
    fields = [];
    rows = steps.map((step, index) => stepRow(step, index, steps.length));
    list.replaceChildren(...rows.map((row) => row.element));
    if (steps.length === 0)
      list.append(h("li", { class: "muted action-no-steps" }, "No steps yet: add one below."));
    if (focus) list.querySelectorAll<HTMLElement>(`[data-control="${focus.control}"]`)[focus.index]?.focus();
    full.hidden = steps.length < LIMITS.steps;
    add.disabled = !full.hidden;
  };
  const change = (edit: (steps: ActionStep[]) => void, focus?: { index: number; control: string }) => {
    const steps = rows.map((row) => row.read());
    edit(steps);
    draw(steps, focus);
  };
  const stepRow = (step: ActionStep, index: number, total: number): Row => {
    const at = `steps.${index}`;
    const { parts, read } = stepFields(step, at, fields);
    const headingId = uid("step");
    const button = (label: string, control: string, disabled: boolean, onclick: () => void) =>
      h(
        "button",
        {
          type: "button",
          class: "secondary small",
          "data-control": control,
          disabled,
          "aria-describedby": headingId,
          onclick,
        },
        label,
      );
    const element = h(
      "li",
      { class: "action-step", "data-step": index },
      h(
        "div",
        { class: "action-step-head" },
        h("h4", { id: headingId }, `Step ${index + 1}: ${STEP_TEXT[step.type]}`),
        h(
          "div",
          { class: "row action-step-tools" },
          button("Up", "up", index === 0, () =>
            change((s) => s.splice(index - 1, 0, ...s.splice(index, 1)), { index: index - 1, control: "up" }),
          ),
          button("Down", "down", index === total - 1, () =>
            change((s) => s.splice(index + 1, 0, ...s.splice(index, 1)), {
              index: index + 1,
              control: "down",
            }),
          ),
          button("Remove", "remove", false, () =>
            change((s) => s.splice(index, 1), { index: Math.max(0, index - 1), control: "remove" }),
          ),
        ),
      ),
      ...parts,
    );
    return { element, read };
  };
  const full = h(
    "p",
    { class: "hint", hidden: true },
    `That is ${LIMITS.steps} steps, the most an action has.`,
  );
  const adding = select(STEP_TYPES, STEP_TEXT, "obs.scene");
  adding.id = "action-step-type";
  const add = h("button", { type: "button", class: "secondary", id: "action-step-add" }, "Add step");
  add.addEventListener("click", () => {
    if (count() >= LIMITS.steps) return;
    change((steps) => steps.push(newStep(adding.value as StepType)));
    list
      .querySelectorAll<HTMLInputElement>(".action-step:last-child input, .action-step:last-child select")[0]
      ?.focus();
  });
  draw(initial);
  const element = h(
    "fieldset",
    { class: "action-steps-box" },
    h("legend", {}, "Steps, in order"),
    list,
    h("div", { class: "row action-step-add" }, h("label", { for: adding.id }, "New step"), adding, add),
    full,
    h("p", { class: "hint" }, `Up to ${LIMITS.steps} steps. A step that cannot run ends the run there.`),
  );
  return { element, read: () => rows.map((row) => row.read()), fields: () => fields };
}
