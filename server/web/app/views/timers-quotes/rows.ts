// What a timer's row and a quote's row share: dates as the streamer reads them, the Edit and Delete
// buttons (named for screen readers by the item they act on), and a delete confirmed in a dialog.
import { errorMessage, sendData } from "../../lib/api.ts";
import { confirmDialog } from "../../lib/dialog.ts";
import { fill, h } from "../../lib/dom.ts";
import { dateTime } from "../../lib/format.ts";
import { announce } from "../../lib/states.ts";

/** "26 Nov 2026". */
export function dayText(ms: number): string {
  return new Date(ms).toLocaleDateString(undefined, { dateStyle: "medium" });
}

/** "26 Nov 2026, 23:40". */
export function momentText(ms: number): string {
  return dateTime(new Date(ms).toISOString());
}

export interface RowActions {
  element: HTMLElement;
  edit: HTMLButtonElement;
}

/** Edit and Delete; `what` ("timer socials", "quote #3") completes their names for screen readers. */
export function rowActions(
  what: string,
  onEdit: () => void,
  onDelete: () => void,
  ...more: Node[]
): RowActions {
  const named = (verb: string, after = "") => [
    verb,
    h("span", { class: "sr-only" }, ` ${what}`),
    after ? h("span", { "aria-hidden": "true" }, after) : null,
  ];
  const edit = h("button", { type: "button", class: "secondary small", onclick: onEdit }, ...named("Edit"));
  const remove = h(
    "button",
    { type: "button", class: "secondary small", onclick: onDelete },
    ...named("Delete", "…"),
  );
  return { element: h("div", { class: "row tq-actions" }, ...more, edit, remove), edit };
}

export interface DeleteRequest {
  title: string;
  message: string;
  /** The panel route that deletes it. */
  path: string;
  /** Said once it is gone ("Quote #3 deleted."). */
  done: string;
  /** Where a failure is said. */
  status: HTMLElement;
}

/** Asks in a dialog, then deletes; true once deleted, false when cancelled or refused (said in `status`). */
export async function confirmAndDelete(request: DeleteRequest): Promise<boolean> {
  const yes = await confirmDialog({
    title: request.title,
    message: request.message,
    confirmLabel: "Delete",
    danger: true,
  });
  if (!yes) return false;
  try {
    await sendData("DELETE", request.path);
    announce(request.done);
    return true;
  } catch (error) {
    fill(request.status, h("span", { class: "error-text" }, errorMessage(error)));
    return false;
  }
}
