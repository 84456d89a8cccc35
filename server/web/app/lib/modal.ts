// A dialog that holds a form or a longer body (edit a row, import a file), as lib/dialog.ts's
// confirmations do: a real <dialog>, so focus stays inside and Escape closes it; a Close button for
// pointer users. The caller fills `body` and calls `close()` when done.
import { h, uid } from "./dom.ts";

export interface Modal {
  dialog: HTMLDialogElement;
  /** Where the caller puts the dialog's content. */
  body: HTMLElement;
  close(): void;
}

/** Opens a modal titled `title`; `onClose` runs once it is closed (by the caller, Close or Escape). */
export function openModal(title: string, onClose: () => void = () => {}, className = ""): Modal {
  const titleId = uid("modal-title");
  const body = h("div", { class: "modal-body" });
  const closeButton = h("button", { type: "button", class: "secondary small modal-close" }, "Close");
  const dialog = h(
    "dialog",
    { class: `dialog modal ${className}`.trim(), "aria-labelledby": titleId },
    h("div", { class: "modal-head" }, h("h2", { id: titleId }, title), closeButton),
    body,
  );
  const close = () => dialog.close();
  closeButton.addEventListener("click", close);
  dialog.addEventListener("close", () => {
    dialog.remove();
    onClose();
  });
  document.body.append(dialog);
  dialog.showModal();
  return { dialog, body, close };
}

/** Moves focus to the first input of `modal` (call after filling its body). */
export function focusFirstInput(modal: Modal): void {
  modal.body.querySelector<HTMLElement>("input:not([readonly]), textarea, select")?.focus();
}
