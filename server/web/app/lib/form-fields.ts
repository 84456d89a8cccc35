// Form fields that show their errors where they are: the label, the input, a hint and the error
// line, wired for screen readers; the browser's own checks and the server's 400 messages (which name
// the field) land on the same error line. Used by the Commands view (views/commands.ts).
import { ApiError, errorMessage } from "./api.ts";
import { type Attrs, fill, h, uid } from "./dom.ts";

export interface Field {
  /** The API's name for it (`cooldownSeconds`, `options.message`, `options.answers.2`). */
  path: string;
  input: HTMLInputElement | HTMLTextAreaElement;
  error: HTMLElement;
}

/** A labelled input with its hint and error line; registers it in `fields` under its API path. */
export function field(
  path: string,
  label: string,
  input: HTMLInputElement | HTMLTextAreaElement,
  fields: Field[],
  hint?: Node,
): HTMLElement {
  const error = h("span", { class: "field-error", id: uid("err") });
  const hintId = hint ? uid("hint") : null;
  input.setAttribute("aria-describedby", [error.id, hintId].filter(Boolean).join(" "));
  input.dataset.field = path;
  fields.push({ path, input, error });
  if (!input.id) input.id = uid("f");
  return h(
    "div",
    { class: "field" },
    h("label", { for: input.id }, label),
    input,
    hint ? h("div", { class: "hint", id: hintId }, hint) : null,
    error,
  );
}

function setError(f: Field, message: string): void {
  f.error.textContent = message;
  f.input.setAttribute("aria-invalid", "true");
}

function clearErrors(fields: Field[]): void {
  for (const f of fields) {
    f.error.textContent = "";
    f.input.removeAttribute("aria-invalid");
  }
}

/**
 * The field a server message names: `field "cooldownSeconds"`, `option "answers.3"`, or a path ahead
 * of the message (`filters.caps.percent: …`, `filters.terms.list[2]: …`, the moderation settings').
 */
function fieldOf(message: string, fields: Field[]): Field | undefined {
  const leading = /^([\w.]+)(?:\[\d+\])?: /.exec(message)?.[1];
  const named = leading ? fields.find((f) => f.path === leading) : undefined;
  if (named) return named;
  const option = /option "([^"]+)"/.exec(message)?.[1];
  if (option)
    return (
      fields.find((f) => f.path === `options.${option}`) ??
      fields.find((f) => f.path.startsWith(`options.${option.split(".")[0]}`))
    );
  const body = /field "([^"]+)"/.exec(message)?.[1];
  return body ? fields.find((f) => f.path === body) : undefined;
}

/** A required whole number between `min` and `max`. */
export function numberInput(value: number, min: number, max: number): HTMLInputElement {
  return h("input", { type: "number", inputmode: "numeric", value, min, max, step: 1, required: true });
}

export function checkbox(checked: boolean): HTMLInputElement {
  return h("input", { type: "checkbox", checked });
}

/** A one-line text input without autocomplete; `more` adds attributes (before `maxlength`). */
export function textInput(value: unknown, maxlength: number, more: Attrs = {}): HTMLInputElement {
  return h("input", { type: "text", value: String(value ?? ""), ...more, maxlength, autocomplete: "off" });
}

/** The browser's own checks (required, min, max), shown at the field like the server's. */
export function validLocally(fields: Field[]): boolean {
  clearErrors(fields);
  let ok = true;
  for (const f of fields) {
    if (!f.input.checkValidity()) {
      setError(f, f.input.validationMessage);
      if (ok) f.input.focus();
      ok = false;
    }
  }
  return ok;
}

export interface ShowErrorOptions {
  /** Move focus to the field at fault (default); off for a check that runs while the user types elsewhere. */
  focus?: boolean;
}

/**
 * A failed request's message: at the field it names (a 400 naming one), else in `where`. Answers the
 * field it was placed at, if any.
 */
export function showServerError(
  error: unknown,
  where: HTMLElement,
  fields: Field[],
  options: ShowErrorOptions = {},
): Field | undefined {
  const target =
    error instanceof ApiError && error.status === 400 ? fieldOf(error.message, fields) : undefined;
  if (target) {
    setError(target, error instanceof Error ? error.message : String(error));
    if (options.focus !== false) target.input.focus();
    fill(where);
  } else {
    fill(where, h("span", { class: "error-text" }, errorMessage(error)));
  }
  return target;
}
