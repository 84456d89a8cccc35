// Field helpers the Custom commands view's forms share, on top of lib/form-fields.ts: a labelled
// select, the rules the browser can check before asking (as the field's own validity, so
// validLocally shows them at the field), and a refusal placed at the field it concerns even when the
// server answers 404 or 409 (a taken name, an unknown login) rather than a 400 naming it.
import { ApiError, errorMessage } from "../../lib/api.ts";
import { h, uid } from "../../lib/dom.ts";
import { type Field, type ShowErrorOptions, showServerError } from "../../lib/form-fields.ts";
import { LEVEL_LABELS, LIMITS, USER_LEVELS, type UserLevel } from "./model.ts";

/** A labelled select in the `.field` layout of lib/form-fields.ts. */
export function selectField(label: string, select: HTMLSelectElement, hint?: string): HTMLElement {
  if (!select.id) select.id = uid("sel");
  const hintId = hint ? uid("hint") : null;
  if (hintId) select.setAttribute("aria-describedby", hintId);
  return h(
    "div",
    { class: "field" },
    h("label", { for: select.id }, label),
    select,
    hint ? h("div", { class: "hint", id: hintId }, hint) : null,
  );
}

/** A select of the user levels, friendly labels, `value` chosen. */
export function levelSelect(value: UserLevel, labels: Record<UserLevel, string> = LEVEL_LABELS) {
  return h(
    "select",
    {},
    USER_LEVELS.map((level) => h("option", { value: level, selected: level === value }, labels[level])),
  );
}

/** Re-checks `input` with `rule` (a message, or "" when fine) on every edit and once now. */
export function checkedBy(input: HTMLInputElement | HTMLTextAreaElement, rule: () => string): void {
  const check = () => input.setCustomValidity(rule());
  input.addEventListener("input", check);
  check();
}

/** A cooldown input's rule: empty is refused by `required`; 1–4 s is neither none nor a cooldown. */
export function cooldownRule(input: HTMLInputElement): () => string {
  return () => {
    const value = input.valueAsNumber;
    if (Number.isNaN(value) || value === 0) return "";
    return value < LIMITS.cooldown.min
      ? `Use 0 for none, or ${LIMITS.cooldown.min} to ${LIMITS.cooldown.max} seconds.`
      : "";
  };
}

/** A cooldown in seconds: 0 (none) or 5–300. */
export function cooldownInput(value: number): HTMLInputElement {
  const input = h("input", {
    type: "number",
    inputmode: "numeric",
    value,
    min: 0,
    max: LIMITS.cooldown.max,
    step: 1,
    required: true,
  });
  checkedBy(input, cooldownRule(input));
  return input;
}

/** Shows `message` at `target` as lib/form-fields.ts shows its errors (and focuses it unless told not to). */
export function errorAt(target: Field, message: string, options: ShowErrorOptions = {}): void {
  target.error.textContent = message;
  target.input.setAttribute("aria-invalid", "true");
  if (options.focus !== false) target.input.focus();
}

/** Takes away an error shown at `target`. */
export function clearErrorAt(target: Field): void {
  target.error.textContent = "";
  target.input.removeAttribute("aria-invalid");
}

/**
 * A failed request's message: a 400 at the field it names (lib/form-fields.ts); a 404 or 409 (a name
 * taken, a login unknown) at `fallback`'s field; anything else in `where`. Answers the field it was
 * placed at, if any.
 */
export function showRefusal(
  error: unknown,
  where: HTMLElement,
  fields: Field[],
  fallback?: string,
  options: ShowErrorOptions = {},
): Field | undefined {
  const target = fields.find((f) => f.path === fallback);
  const placedByPath = error instanceof ApiError && error.status === 400 && /field "/.test(error.message);
  if (target && error instanceof ApiError && !placedByPath && [400, 404, 409].includes(error.status)) {
    errorAt(target, errorMessage(error), options);
    where.replaceChildren();
    return target;
  }
  return showServerError(error, where, fields, options);
}
