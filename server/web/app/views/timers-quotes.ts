// Timers & quotes (issue 24): the messages cuebot posts by itself while the stream is live, and the
// channel's numbered quotes. Each section is its own module under timers-quotes/.
import { fill, h } from "../lib/dom.ts";
import type { View } from "../view.ts";
import { quotesSection } from "./timers-quotes/quotes.ts";
import { timersSection } from "./timers-quotes/timers.ts";

export const timersQuotesView: View = {
  id: "timers-quotes",
  title: "Timers & quotes",
  render(root) {
    fill(
      root,
      h(
        "p",
        { class: "lead" },
        "What cuebot says in your chat without being asked, and the quotes your chat keeps. Changes here apply at once.",
      ),
      h("div", { class: "stack" }, timersSection(), quotesSection()),
    );
  },
};
