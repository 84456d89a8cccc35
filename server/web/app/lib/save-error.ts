// A failed save's message where it belongs: form-fields' showServerError places a 400 at the field
// it names; a 409 for a name already taken (`already_exists`) belongs at the name's field as well.
import { ApiError } from "./api.ts";
import { fill } from "./dom.ts";
import { type Field, showServerError } from "./form-fields.ts";

export function showSaveError(error: unknown, where: HTMLElement, fields: Field[], nameField?: string): void {
  const target = fields.find((f) => f.path === nameField);
  if (target && error instanceof ApiError && error.status === 409 && error.code === "already_exists") {
    target.error.textContent = error.message;
    target.input.setAttribute("aria-invalid", "true");
    target.input.focus();
    fill(where);
    return;
  }
  showServerError(error, where, fields);
}
