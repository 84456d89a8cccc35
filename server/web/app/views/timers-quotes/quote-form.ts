// A quote's form, to add one or edit one: the text (one chat line) and the game it was said in
// (optional; left empty, a quote has none).
import { h } from "../../lib/dom.ts";
import { type Field, field } from "../../lib/form-fields.ts";
import { limitLength } from "../../lib/text-limit.ts";
import { itemForm } from "./item-form.ts";
import { QUOTE_LIMITS, type QuoteFields } from "./types.ts";

export interface QuoteFormOptions {
  /** The quote being edited; none for a new one. */
  initial?: QuoteFields;
  save: (values: QuoteFields) => Promise<string>;
  cancel?: () => void;
  label: string;
}

export function quoteForm(options: QuoteFormOptions): HTMLFormElement {
  const fields: Field[] = [];
  const initial = options.initial ?? { text: "", game: null };
  const text = h("textarea", { rows: 2, required: true }, initial.text);
  const game = h("input", { type: "text", value: initial.game ?? "", autocomplete: "off" });
  const parts = [
    field(
      "text",
      "Quote",
      text,
      fields,
      h("span", {}, "One chat line. ", limitLength(text, QUOTE_LIMITS.textLength, { oneLine: true })),
    ),
    field(
      "game",
      "Game",
      game,
      fields,
      h("span", {}, "Optional: what was being played. ", limitLength(game, QUOTE_LIMITS.gameLength)),
    ),
  ];
  return itemForm({
    parts,
    fields,
    submitLabel: options.initial ? "Save" : "Add the quote",
    save: () => options.save({ text: text.value.trim(), game: game.value.trim() || null }),
    cancel: options.cancel,
    label: options.label,
    resetAfterSave: !options.initial,
  });
}
