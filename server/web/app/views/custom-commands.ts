// Custom commands (issue 24): being written.
import type { View } from "../view.ts";

export const customCommandsView: View = {
  id: "custom-commands",
  title: "Custom commands",
  render(root) {
    root.textContent = "";
  },
};
