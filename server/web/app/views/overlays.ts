// Overlays: what the OBS overlay shows (edit and publish), its link to copy, and the overlay page itself
// beside the form, live: it updates the moment a publish reaches it, as it will in OBS.
import { errorMessage, getData, sendData } from "../lib/api.ts";
import { copyText } from "../lib/copy.ts";
import { fill, h, uid } from "../lib/dom.ts";
import { obsHint, sourcePreview } from "../lib/obs.ts";
import { announce, load } from "../lib/states.ts";
import type { OverlayInfo } from "../lib/types.ts";
import type { View } from "../view.ts";

function text(state: Record<string, unknown>, key: string): string {
  const value = state[key];
  return typeof value === "string" ? value : "";
}

function render(root: HTMLElement, info: OverlayInfo, reload: () => void): void {
  const title = h("input", {
    type: "text",
    id: "overlay-title",
    maxlength: 80,
    value: text(info.state, "title"),
  });
  const message = h("textarea", { id: "overlay-text", rows: 3, maxlength: 300 }, text(info.state, "text"));
  const status = h("p", { role: "status", class: "save-status" });
  const publish = async (state: Record<string, string>) => {
    try {
      await sendData("POST", "/api/dashboard/overlay/state", { state });
      fill(status, h("span", { class: "ok-text" }, "Published to your overlays."));
      announce("Overlay published.");
    } catch (error) {
      fill(status, h("span", { class: "error-text" }, errorMessage(error)));
    }
  };
  const form = h(
    "form",
    { class: "overlay-form", novalidate: true },
    h("div", { class: "field" }, h("label", { for: "overlay-title" }, "Title"), title),
    h("div", { class: "field" }, h("label", { for: "overlay-text" }, "Message"), message),
    h(
      "div",
      { class: "row" },
      h("button", { type: "submit", id: "overlay-publish" }, "Publish"),
      h(
        "button",
        {
          type: "button",
          class: "secondary",
          onclick: () => {
            title.value = "";
            message.value = "";
            void publish({});
          },
        },
        "Clear the overlay",
      ),
    ),
    status,
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void publish({ title: title.value, text: message.value });
  });

  const url = info.overlay_url;
  // The preview loads the page from this server (its path), whatever the public host name is.
  const previewPath = url ? new URL(url).pathname : null;
  const linkId = uid("link");
  const previewId = uid("preview");
  fill(
    root,
    h(
      "section",
      { class: "card", "aria-labelledby": linkId },
      h("h2", { id: linkId }, "Overlay link for OBS"),
      url
        ? h(
            "div",
            {},
            h(
              "p",
              { id: "overlay-obs-hint" },
              obsHint("It shows the card you publish here and your alerts (Alerts)."),
            ),
            h("code", { class: "line", id: "overlay-url" }, url),
            h(
              "div",
              { class: "row" },
              h(
                "button",
                {
                  type: "button",
                  class: "secondary small",
                  onclick: () => void copyText(url, "The overlay link"),
                },
                "Copy link",
              ),
              h("span", { class: "muted", id: "overlay-connections" }, `${info.connections} connected now`),
              h("button", { type: "button", class: "secondary small", onclick: reload }, "Refresh"),
            ),
          )
        : h("p", {}, "There is no overlay link yet. Create one under Security → New overlay link."),
    ),
    h(
      "div",
      { class: "split" },
      h(
        "section",
        { class: "card", "aria-labelledby": "overlay-form-h" },
        h("h2", { id: "overlay-form-h" }, "What the overlay shows"),
        form,
      ),
      h(
        "section",
        { class: "card", "aria-labelledby": previewId },
        h("h2", { id: previewId }, "Live preview"),
        previewPath
          ? sourcePreview(previewPath, "The overlay page as OBS shows it", {}, { loading: "lazy" })
          : h("p", { class: "state state-empty" }, "No overlay link, so nothing to preview."),
        h(
          "p",
          { class: "muted" },
          "The overlay page itself, shrunk to fit: it changes when you publish, as it will in OBS.",
        ),
      ),
    ),
  );
}

export const overlaysView: View = {
  id: "overlays",
  title: "Overlays",
  render(root) {
    const draw = () =>
      void load(
        root,
        () => getData<OverlayInfo>("/api/dashboard/overlay"),
        (info) => render(root, info, draw),
      );
    draw();
  },
};
