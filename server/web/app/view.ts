// What every view module exports, and what the shell gives it. A new view is one module exporting a
// `View`, plus one entry in views.ts.
import type { Profile, Session } from "./lib/types.ts";

export interface App {
  session: Session;
  /** The profile (role, limits, public URL), fetched once and shared by the views. */
  profile(): Promise<Profile>;
}

export interface View {
  /** The address after `#/`, e.g. `commands`. */
  id: string;
  /** The navigation label and the view's heading. */
  title: string;
  /** Draws the view into `root` (already empty, with the heading above it). */
  render(root: HTMLElement, app: App): void;
}
