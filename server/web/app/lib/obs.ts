// What the dashboard tells a streamer about adding an overlay link to OBS, and how it previews the
// overlay page, the same on every view that shows one (Overlays, Alerts): at the browser source's
// size (OVERLAY_SOURCE_SIZE), scaled to the card, so the preview shows what OBS will.
import { OVERLAY_SOURCE_SIZE } from "../../../vocabulary.ts";
import { type Attrs, h, whenResized } from "./dom.ts";

/** "Browser source, width 1920, height 1080": the size the overlay page is made for. */
export const BROWSER_SOURCE = `Browser source, width ${OVERLAY_SOURCE_SIZE.width}, height ${OVERLAY_SOURCE_SIZE.height}`;

/** The line under an overlay link: how to add it to OBS, and who can see it. */
export function obsHint(what: string): string {
  return `Add to OBS: ${BROWSER_SOURCE} (on a canvas of another size, right-click it → Transform → Fit to screen). ${what} Anyone with the link can see the overlay, nothing else.`;
}

/** Scales the browser source's frame to the box's width whenever the box changes size. */
function scaleToFit(box: HTMLElement, frame: HTMLIFrameElement): void {
  whenResized(box, () => {
    frame.style.transform = `scale(${box.clientWidth / OVERLAY_SOURCE_SIZE.width})`;
  });
}

/** The overlay page at `src` in a box of the browser source's shape, laid out at its size and shrunk to fit. */
export function sourcePreview(src: string, title: string, box: Attrs, frame: Attrs = {}): HTMLElement {
  const iframe = h("iframe", {
    src,
    title,
    ...frame,
    width: OVERLAY_SOURCE_SIZE.width,
    height: OVERLAY_SOURCE_SIZE.height,
  });
  const element = h("div", { ...box, class: "preview-frame source-preview" }, iframe);
  scaleToFit(element, iframe);
  return element;
}
