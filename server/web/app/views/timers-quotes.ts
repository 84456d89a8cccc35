// Timers and quotes (issue 24): being written.
import type { View } from "../view.ts";

export const timersQuotesView: View = {
  id: "timers-quotes",
  title: "Timers & quotes",
  render(root) {
    root.textContent = "";
  },
};
