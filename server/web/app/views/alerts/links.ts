// The overlay links OBS takes (the full overlay and the alerts-only one, each with Copy) and a live
// preview of the alerts-only page at the browser source's size, shrunk to the card (lib/obs.ts), so a
// test alert shows here as it will in OBS.
import { copyText } from "../../lib/copy.ts";
import { h, uid } from "../../lib/dom.ts";
import { obsHint, sourcePreview } from "../../lib/obs.ts";
import type { AlertsInfo } from "./types.ts";

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

export function previewCard(info: AlertsInfo): HTMLElement {
  const headingId = uid("alerts-preview");
  // The preview loads the page from this server (its path and query), whatever the public host name is.
  const path = info.alertsOnlyUrl ? new URL(info.alertsOnlyUrl) : null;
  let content: HTMLElement;
  if (path) {
    content = sourcePreview(
      `${path.pathname}${path.search}${path.search ? "&" : "?"}muted=1`,
      "The alerts-only overlay page as OBS shows it",
      { id: "alerts-preview" },
      // Silent here: the dashboard tab never plays the alerts' sounds (OBS does).
      { allow: "autoplay 'none'" },
    );
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
