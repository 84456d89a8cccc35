// The add and edit forms of timers and quotes share their behaviour: the browser's checks at each
// field, then the request; a refusal lands at the field it names and everything typed stays; a
// success is said in the form's status line and announced (lib/form-save.ts). An edit form also has
// Cancel (and Escape).
import { h } from "../../lib/dom.ts";
import type { Field } from "../../lib/form-fields.ts";
import { handleSave } from "../../lib/form-save.ts";
import { showSaveError } from "../../lib/save-error.ts";

export interface ItemFormOptions {
  /** The form's inputs (built with form-fields' `field`, registered in `fields`). */
  parts: Node[];
  fields: Field[];
  submitLabel: string;
  /** Sends what the form holds; answers the sentence that says what was done. */
  save: () => Promise<string>;
  /** An edit form's way back; Escape does the same. */
  cancel?: () => void;
  /** The field a 409 "already exists" belongs to. */
  nameField?: string;
  /** The form's accessible name ("Add a timer", "Edit quote #3"). */
  label: string;
  /** An add form starts again empty (its defaults) once saved. */
  resetAfterSave?: boolean;
}

/** Back to the values the form was built with; the counters and checks follow. */
function resetFields(form: HTMLFormElement, fields: Field[]): void {
  form.reset();
  for (const f of fields) f.input.dispatchEvent(new Event("input"));
}

export function itemForm(options: ItemFormOptions): HTMLFormElement {
  const status = h("p", { class: "save-status", role: "status" });
  const submit = h("button", { type: "submit" }, options.submitLabel);
  const cancel = options.cancel
    ? h("button", { type: "button", class: "secondary", onclick: options.cancel }, "Cancel")
    : null;
  const form = h(
    "form",
    { class: "tq-form", novalidate: true, "aria-label": options.label },
    ...options.parts,
    h("div", { class: "row" }, submit, cancel),
    status,
  );
  handleSave(form, {
    submit,
    status,
    fields: () => options.fields,
    async save() {
      const done = await options.save();
      if (options.resetAfterSave) resetFields(form, options.fields);
      return { shown: done };
    },
    refused: (error) => showSaveError(error, status, options.fields, options.nameField),
  });
  if (options.cancel) {
    const cancelled = options.cancel;
    form.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        cancelled();
      }
    });
  }
  return form;
}
