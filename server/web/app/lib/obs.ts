// What the dashboard tells a streamer about adding an overlay link to OBS, the same on every view
// that shows one (Overlays, Alerts).
import { OVERLAY_SOURCE_SIZE } from "../../../vocabulary.ts";

/** "Browser source, width 1920, height 1080": the size the overlay page is made for. */
export const BROWSER_SOURCE = `Browser source, width ${OVERLAY_SOURCE_SIZE.width}, height ${OVERLAY_SOURCE_SIZE.height}`;

/** The line under an overlay link: how to add it to OBS, and who can see it. */
export function obsHint(what: string): string {
  return `Add to OBS: ${BROWSER_SOURCE} (on a canvas of another size, right-click it → Transform → Fit to screen). ${what} Anyone with the link can see the overlay, nothing else.`;
}
