// A form's save, as every dashboard form does it: one at a time (a second click or Enter while the
// first is under way is ignored), the browser's checks at each field first, then the request; the
// button off meanwhile; a success said in the status line and announced, a refusal shown where it
// belongs (what was typed stays: fix the field and save again) and announced.
import { errorMessage } from "./api.ts";
import { fill, h } from "./dom.ts";
import { type Field, validLocally } from "./form-fields.ts";
import { announce } from "./states.ts";

/** What a save did: `shown` in the status line, `said` to screen readers (default: the same). */
export interface Saved {
  shown: string;
  said?: string;
}

export interface FormSave {
  submit: HTMLButtonElement;
  status: HTMLElement;
  /** The fields checked before sending (read at each submit: a form's fields may change). */
  fields: () => Field[];
  save: () => Promise<Saved>;
  /** Shows a refusal (at the field it names, or in the status line). */
  refused: (error: unknown) => void;
}

export function handleSave(form: HTMLFormElement, parts: FormSave): void {
  let busy = false;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (busy) return;
    fill(parts.status);
    if (!validLocally(parts.fields())) return;
    busy = true;
    parts.submit.disabled = true;
    try {
      const done = await parts.save();
      fill(parts.status, h("span", { class: "ok-text" }, done.shown));
      announce(done.said ?? done.shown);
    } catch (error) {
      parts.refused(error);
      announce(`Not saved. ${errorMessage(error)}`, "error");
    } finally {
      busy = false;
      parts.submit.disabled = false;
    }
  });
}
