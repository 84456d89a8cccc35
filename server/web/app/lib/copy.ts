import { h } from "./dom.ts";
import { announce } from "./states.ts";

/** Copies text to the clipboard and says so (the Clipboard API needs a secure context: localhost or https). */
export async function copyText(text: string, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    announce(`${what} copied.`);
  } catch {
    announce(`Could not copy ${what.toLowerCase()}; select it and copy by hand.`, "error");
  }
}

/** A copy button whose text comes from `value()` at click time (it may fetch the key first). */
export function copyButton(
  label: string,
  what: string,
  value: () => string | Promise<string>,
): HTMLButtonElement {
  return h(
    "button",
    {
      type: "button",
      class: "secondary small",
      onclick: async () => copyText(await value(), what),
    },
    label,
  );
}
