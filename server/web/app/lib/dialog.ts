// In-page confirmations (<dialog>), never confirm()/prompt(): styled, keyboard-friendly, and able to
// ask for a typed confirmation.
import { h } from "./dom.ts";

export interface ConfirmOptions {
  title: string;
  message: string;
  confirmLabel: string;
  danger?: boolean;
  /** When set, the confirm button stays disabled until this exact text (case-insensitive) is typed. */
  typeToConfirm?: string;
}

/** Resolves true when the person confirmed, false when they cancelled or pressed Escape. */
export function confirmDialog(options: ConfirmOptions): Promise<boolean> {
  return new Promise((resolve) => {
    const confirm = h(
      "button",
      { type: "submit", value: "yes", class: options.danger ? "danger" : "" },
      options.confirmLabel,
    );
    const typed = options.typeToConfirm
      ? h("input", {
          type: "text",
          autocomplete: "off",
          spellcheck: "false",
          "aria-describedby": "dialog-msg",
        })
      : null;
    if (typed && options.typeToConfirm) {
      const expected = options.typeToConfirm.toLowerCase();
      confirm.disabled = true;
      typed.addEventListener("input", () => {
        confirm.disabled = typed.value.trim().toLowerCase() !== expected;
      });
    }
    const dialog = h(
      "dialog",
      { class: "dialog", "aria-labelledby": "dialog-title" },
      h(
        "form",
        { method: "dialog" },
        h("h2", { id: "dialog-title" }, options.title),
        h("p", { id: "dialog-msg" }, options.message),
        typed
          ? h("label", { class: "field" }, h("span", {}, `Type ${options.typeToConfirm} to confirm`), typed)
          : null,
        h(
          "div",
          { class: "row end" },
          h("button", { type: "submit", value: "no", class: "secondary" }, "Cancel"),
          confirm,
        ),
      ),
    );
    dialog.addEventListener("close", () => {
      resolve(dialog.returnValue === "yes");
      dialog.remove();
    });
    document.body.append(dialog);
    dialog.showModal();
    (typed ?? confirm).focus();
  });
}
