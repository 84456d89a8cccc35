// An alert's image or sound: choose one of the channel's uploads (or none), or upload a new file,
// which is then chosen. A refused file (too big, not an image or a sound by its bytes, too many
// files) is said at this field; the choice made before stays.

import type { AlertAssetKind } from "../../../../vocabulary.ts";
import { errorMessage } from "../../lib/api.ts";
import { fill, h, uid } from "../../lib/dom.ts";
import type { Field } from "../../lib/form-fields.ts";
import { announce } from "../../lib/states.ts";
import { type AssetStore, assetLabel, assetPreview, fileProblem, KIND_TEXT } from "./assets.ts";

export interface AssetPicker {
  element: HTMLElement;
  /** The chosen asset's id, or null for none. */
  value(): number | null;
}

function options(
  select: HTMLSelectElement,
  store: AssetStore,
  kind: AlertAssetKind,
  chosen: number | null,
): void {
  fill(
    select,
    h("option", { value: "" }, "None"),
    store.list(kind).map((a) => h("option", { value: a.id, selected: a.id === chosen }, assetLabel(a))),
  );
}

/** The picker for `path` (`imageId` or `soundId`); registers its error line in `fields`. */
export function assetPicker(
  kind: AlertAssetKind,
  path: string,
  initial: number | null,
  store: AssetStore,
  fields: Field[],
): AssetPicker {
  const text = KIND_TEXT[kind];
  const label = kind === "image" ? "Image" : "Sound";
  const error = h("span", { class: "field-error", id: uid("err") });
  const hintId = uid("hint");
  const select = h("select", { id: uid("asset"), "aria-describedby": `${error.id} ${hintId}` });
  const file = h("input", {
    type: "file",
    id: uid("upload"),
    accept: text.accept,
    "aria-describedby": `${error.id} ${hintId}`,
  });
  file.dataset.field = path;
  fields.push({ path, input: file, error });
  options(select, store, kind, initial);
  const preview = h("div", { class: "alerts-asset-preview" });
  const showChosen = () => {
    const chosen = store.list(kind).find((a) => String(a.id) === select.value);
    if (preview.dataset.id === select.value) return;
    preview.dataset.id = select.value;
    fill(preview, chosen ? assetPreview(chosen, `The chosen ${text.one}: ${assetLabel(chosen)}`) : null);
  };
  showChosen();
  select.addEventListener("change", showChosen);
  const element = h(
    "div",
    { class: "field alerts-asset" },
    h("label", { for: select.id }, label),
    select,
    preview,
    h("label", { for: file.id, class: "alerts-upload-label" }, `Upload a new ${text.one}`),
    file,
    h("div", { class: "hint", id: hintId }, `${text.formats}, at most 1 MiB.`),
    error,
  );
  store.onChange(element, () => {
    const keep = select.value;
    options(select, store, kind, keep === "" ? null : Number(keep));
    showChosen();
  });
  file.addEventListener("change", async () => {
    const chosen = file.files?.[0];
    if (!chosen) return;
    error.textContent = "";
    file.removeAttribute("aria-invalid");
    const problem = fileProblem(chosen);
    file.disabled = true;
    try {
      if (problem) throw new Error(problem);
      const added = await store.upload(kind, chosen);
      select.value = String(added.id);
      // As if chosen by hand: the preview follows, and the form knows it now differs from what is saved.
      select.dispatchEvent(new Event("change", { bubbles: true }));
      announce(`${label} uploaded and chosen; save to keep it.`);
    } catch (failure) {
      error.textContent = errorMessage(failure);
      file.setAttribute("aria-invalid", "true");
    } finally {
      file.value = "";
      file.disabled = false;
      // Disabling dropped the keyboard focus; it goes back where it was.
      file.focus();
    }
  });
  return { element, value: () => (select.value === "" ? null : Number(select.value)) };
}
