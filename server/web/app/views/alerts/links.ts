// The overlay links OBS takes (the full overlay and the alerts-only one, each with Copy) and a live
// preview of the alerts-only page, scaled from the browser source's size (1920×1080) to the card's width, so a test alert shows
// here as it will in OBS.
import { OVERLAY_SOURCE_SIZE } from "../../../../vocabulary.ts";
import { copyText } from "../../lib/copy.ts";
import { h, uid } from "../../lib/dom.ts";
import { obsHint } from "../../lib/obs.ts";
import type { AlertsInfo } from "./types.ts";

const STAGE = OVERLAY_SOURCE_SIZE;

function linkRow(id: string, label: string, url: string, what: string): HTMLElement {
  return h(
    "div",
    { class: "alerts-link" },
    h("span", { class: "alerts-link-label" }, label),
    h("code", { class: "line", id }, url),
    h(
      "button",
      { type: "button", class: "secondary small", onclick: () => void copyText(url, what) },
      `Copy ${label.toLowerCase()}`,
    ),
  );
}

export function linksCard(info: AlertsInfo): HTMLElement {
  const headingId = uid("alerts-links");
  const body =
    info.overlayUrl && info.alertsOnlyUrl
      ? [
          linkRow("alerts-overlay-url", "Full overlay", info.overlayUrl, "The overlay link"),
          linkRow("alerts-only-url", "Alerts only", info.alertsOnlyUrl, "The alerts-only link"),
          h(
            "p",
            { class: "hint", id: "alerts-obs-hint" },
            obsHint(
              "The full overlay also shows the card you publish under Overlays; the alerts-only link shows nothing but alerts.",
            ),
          ),
        ]
      : [h("p", {}, "There is no overlay link yet. Create one under Security → New overlay link.")];
  return h(
    "section",
    { class: "card", "aria-labelledby": headingId },
    h("h2", { id: headingId }, "Overlay links for OBS"),
    ...body,
  );
}

/** Scales the browser source's frame to the box's width whenever the box changes size. */
function scaleToFit(box: HTMLElement, frame: HTMLIFrameElement): void {
  const observer = new ResizeObserver(() => {
    if (!box.isConnected) {
      observer.disconnect();
      return;
    }
    frame.style.transform = `scale(${box.clientWidth / STAGE.width})`;
  });
  observer.observe(box);
}

export function previewCard(info: AlertsInfo): HTMLElement {
  const headingId = uid("alerts-preview");
  // The preview loads the page from this server (its path and query), whatever the public host name is.
  const path = info.alertsOnlyUrl ? new URL(info.alertsOnlyUrl) : null;
  let content: HTMLElement;
  if (path) {
    const frame = h("iframe", {
      src: `${path.pathname}${path.search}${path.search ? "&" : "?"}muted=1`,
      title: "The alerts-only overlay page as OBS shows it",
      // Silent here: the dashboard tab never plays the alerts' sounds (OBS does).
      allow: "autoplay 'none'",
      width: STAGE.width,
      height: STAGE.height,
    });
    content = h("div", { class: "preview-frame alerts-preview", id: "alerts-preview" }, frame);
    scaleToFit(content, frame);
  } else {
    content = h("p", { class: "state state-empty" }, "No overlay link, so nothing to preview.");
  }
  return h(
    "section",
    { class: "card", "aria-labelledby": headingId },
    h("h2", { id: headingId }, "Live preview"),
    content,
    h(
      "p",
      { class: "muted" },
      "The alerts-only overlay itself, shrunk to fit and without sound: “Send a test alert” below shows here (and in OBS, with its sound).",
    ),
  );
}
