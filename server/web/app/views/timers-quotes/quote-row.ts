// One quote in the list: its number, text, game and date, with Edit (the form in its place) and
// Delete (confirmed; the number is never given to another quote).
import { sendData } from "../../lib/api.ts";
import { fill, h, uid } from "../../lib/dom.ts";
import { quoteForm } from "./quote-form.ts";
import { confirmAndDelete, dayText, rowActions } from "./rows.ts";
import type { Quote } from "./types.ts";

export interface QuoteRowHooks {
  /** The quote was deleted; its row is still in place. */
  deleted: (row: HTMLElement) => void;
}

export function quoteRow(initial: Quote, hooks: QuoteRowHooks): HTMLLIElement {
  const row = h("li", { class: "tq-item", "data-quote": initial.number });
  let quote = initial;

  const show = (focusEdit: boolean) => {
    const status = h("p", { class: "save-status", role: "status" });
    const actions = rowActions(`quote #${quote.number}`, edit, () => void remove(status));
    const numberId = uid("quote");
    row.setAttribute("aria-labelledby", numberId);
    row.classList.remove("tq-editing");
    fill(
      row,
      h(
        "div",
        { class: "tq-body" },
        h(
          "div",
          { class: "tq-head" },
          h("h3", { id: numberId, class: "tq-name tq-number" }, `#${quote.number}`),
          h("span", { class: "tq-meta" }, [quote.game, dayText(quote.createdAt)].filter(Boolean).join(" · ")),
        ),
        h("p", { class: "tq-text" }, quote.text),
      ),
      actions.element,
      status,
    );
    if (focusEdit) actions.edit.focus();
  };

  function edit(): void {
    const form = quoteForm({
      initial: quote,
      label: `Edit quote #${quote.number}`,
      save: async (values) => {
        quote = await sendData<Quote>("PUT", `/api/dashboard/quotes/${quote.number}`, values);
        show(true);
        return `Quote #${quote.number} saved.`;
      },
      cancel: () => show(true),
    });
    row.classList.add("tq-editing");
    fill(row, h("h3", { class: "tq-name tq-number" }, `#${quote.number}`), form);
    form.querySelector<HTMLElement>("textarea")?.focus();
  }

  async function remove(status: HTMLElement): Promise<void> {
    const deleted = await confirmAndDelete({
      title: `Delete quote #${quote.number}?`,
      message: `“${quote.text}” is deleted, and !quote ${quote.number} answers nothing from then on. This cannot be undone.`,
      path: `/api/dashboard/quotes/${quote.number}`,
      done: `Quote #${quote.number} deleted.`,
      status,
    });
    if (deleted) hooks.deleted(row);
  }

  show(false);
  return row;
}
