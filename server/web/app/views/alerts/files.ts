// "Your files": every uploaded image and sound (kind, format, size, when), each with a thumbnail or a
// player and Delete (confirmed: the types that use it then show none). Says "n of 20", so a full
// allowance is never a dead end. A delete updates every type's picker at once.
import { fill, h, uid } from "../../lib/dom.ts";
import { dateTime } from "../../lib/format.ts";
import { confirmAndDelete } from "../timers-quotes/rows.ts";
import { type AssetStore, assetLabel, assetPreview, assetUrl } from "./assets.ts";
import type { AlertAsset } from "./types.ts";

/** One file; `gone` runs once it is deleted (its row is about to go). */
function fileRow(asset: AlertAsset, store: AssetStore, status: HTMLElement, gone: () => void): HTMLElement {
  const label = assetLabel(asset);
  const remove = h("button", { type: "button", class: "secondary small" }, "Delete");
  remove.setAttribute("aria-label", `Delete ${label}`);
  remove.addEventListener("click", async () => {
    fill(status);
    const deleted = await confirmAndDelete({
      title: `Delete ${asset.kind} #${asset.id}?`,
      message: `${label} is deleted. Alert types that use it then show no ${asset.kind}. This cannot be undone.`,
      path: assetUrl(asset.id),
      done: `${label} deleted.`,
      status,
    });
    if (deleted) {
      store.removed(asset.id);
      gone();
    }
  });
  return h(
    "li",
    { class: "alerts-file", "data-id": asset.id },
    asset.kind === "image"
      ? assetPreview(asset, label)
      : h("span", { class: "alerts-thumb alerts-thumb-sound", "aria-hidden": "true" }, "♪"),
    h(
      "div",
      { class: "alerts-file-what" },
      h("strong", {}, label),
      h("span", { class: "muted" }, ` · uploaded ${dateTime(asset.createdAt)}`),
      asset.kind === "sound" ? assetPreview(asset, `Listen: ${label}`) : null,
    ),
    remove,
  );
}

export function filesCard(store: AssetStore): HTMLElement {
  const headingId = uid("alerts-files");
  const count = h("p", { class: "muted", id: "alerts-files-count", tabindex: -1 });
  const list = h("div", { id: "alerts-files" });
  const status = h("p", { class: "save-status", role: "status" });
  const draw = () => {
    const items = store.all();
    count.textContent = `${items.length} of ${store.limit} files.${items.length >= store.limit ? " Delete one to upload another." : ""}`;
    if (items.length === 0)
      fill(
        list,
        h(
          "p",
          { class: "state state-empty" },
          "No files yet. Upload an image or a sound in a type's settings.",
        ),
      );
    else
      fill(
        list,
        h(
          "ul",
          { class: "plain alerts-files" },
          items.map((a) => fileRow(a, store, status, () => count.focus())),
        ),
      );
  };
  const element = h(
    "section",
    { class: "card", "aria-labelledby": headingId },
    h("h2", { id: headingId }, "Your files"),
    count,
    list,
    status,
  );
  draw();
  store.onChange(element, draw);
  return element;
}
