// One alert type's settings: on/off, the text (with the placeholders this type fills), the minimum
// (cheers, raids, gifts), how long it shows, the volume, an image and a sound, the optional chat
// thanks line; Save, and "Send a test alert". Every value is checked at its field, by the browser and
// by the server (which names the field it refuses); what was typed stays until it is saved.
import type { AlertAssetKind } from "../../../../vocabulary.ts";
import { errorMessage, sendData } from "../../lib/api.ts";
import { fill, h, uid } from "../../lib/dom.ts";
import { checkbox, type Field, field, numberInput, textInput } from "../../lib/form-fields.ts";
import { announce } from "../../lib/states.ts";
import { limitLength } from "../../lib/text-limit.ts";
import { itemForm } from "../timers-quotes/item-form.ts";
import { assetPicker } from "./asset-picker.ts";
import type { AssetStore } from "./assets.ts";
import { ALERT_LIMITS, type AlertSettings, type AlertType, type AlertTypeInfo, TYPE_FACTS } from "./types.ts";

/** `{user} {amount}`: each placeholder as code, spaced. */
function codes(names: readonly string[]): (Node | string)[] {
  const out: (Node | string)[] = [];
  for (const name of names) {
    if (out.length > 0) out.push(" ");
    out.push(h("code", {}, `{${name}}`));
  }
  return out;
}

function templateInputs(type: AlertType, s: AlertSettings, fields: Field[]) {
  const L = ALERT_LIMITS;
  const template = textInput(s.template, 1000, { id: `alert-${type}-template`, required: true });
  const chat = textInput(s.chatMessage ?? "", 1000, { id: `alert-${type}-chat` });
  const parts = [
    field(
      "template",
      "Text on the overlay",
      template,
      fields,
      h(
        "span",
        {},
        "Placeholders: ",
        ...codes(TYPE_FACTS[type].placeholders),
        ". ",
        limitLength(template, L.templateLength, { oneLine: true }),
      ),
    ),
    field(
      "chatMessage",
      "Thanks in chat (optional)",
      chat,
      fields,
      h(
        "span",
        {},
        "Sent in your chat when the alert shows, if native chat is on. Leave empty for none. ",
        ...codes(TYPE_FACTS[type].placeholders.filter((name) => name !== "message")),
        ". ",
        limitLength(chat, L.templateLength, { oneLine: true }),
      ),
    ),
  ];
  return { parts, template, chat };
}

function numberInputs(type: AlertType, s: AlertSettings, fields: Field[]) {
  const L = ALERT_LIMITS;
  const minimum = TYPE_FACTS[type].minimum;
  const min = numberInput(s.minAmount, L.minAmount.min, L.minAmount.max);
  const duration = numberInput(s.durationSeconds, L.durationSeconds.min, L.durationSeconds.max);
  const volume = numberInput(s.volume, L.volume.min, L.volume.max);
  min.id = `alert-${type}-min`;
  duration.id = `alert-${type}-duration`;
  volume.id = `alert-${type}-volume`;
  const row = h(
    "div",
    { class: "field-row" },
    minimum
      ? field(
          "minAmount",
          `Minimum ${minimum}`,
          min,
          fields,
          h("span", {}, "Fewer: kept in the history, not shown. 0 = any."),
        )
      : null,
    field(
      "durationSeconds",
      "Shown for (seconds)",
      duration,
      fields,
      h("span", {}, `${L.durationSeconds.min} to ${L.durationSeconds.max}`),
    ),
    field("volume", "Sound volume", volume, fields, h("span", {}, "0 (silent) to 100")),
  );
  return { row, min: minimum ? min : null, duration, volume };
}

export interface TypeFormOptions {
  info: AlertTypeInfo;
  assets: AssetStore;
  /** After a save: the settings as stored. */
  saved: (settings: AlertSettings) => void;
}

/** `id` while the channel still has that file, else null (a deleted file leaves every type with none). */
function kept(assets: AssetStore, kind: AlertAssetKind, id: number | null): number | null {
  return id !== null && assets.list(kind).some((a) => a.id === id) ? id : null;
}

/** The form, and whether it holds changes not saved yet (said to `dirty` on every edit and save). */
function typeForm(options: TypeFormOptions, dirty: (unsaved: boolean) => void): HTMLFormElement {
  const { type, settings: s } = options.info;
  const fields: Field[] = [];
  const enabled = checkbox(s.enabled);
  enabled.id = `alert-${type}-enabled`;
  const texts = templateInputs(type, s, fields);
  const numbers = numberInputs(type, s, fields);
  const image = assetPicker("image", "imageId", s.imageId, options.assets, fields);
  const sound = assetPicker("sound", "soundId", s.soundId, options.assets, fields);
  const values = (): AlertSettings => ({
    enabled: enabled.checked,
    template: texts.template.value.trim(),
    minAmount: numbers.min ? numbers.min.valueAsNumber : s.minAmount,
    durationSeconds: numbers.duration.valueAsNumber,
    volume: numbers.volume.valueAsNumber,
    imageId: image.value(),
    soundId: sound.value(),
    chatMessage: texts.chat.value.trim() === "" ? null : texts.chat.value.trim(),
  });
  // What the server holds now: what was last saved, less a file deleted since (the server drops it).
  let saved = values();
  const form = itemForm({
    parts: [
      h("label", { class: "check" }, enabled, ` Show ${TYPE_FACTS[type].label.toLowerCase()} alerts`),
      ...texts.parts,
      numbers.row,
      h("div", { class: "field-row" }, image.element, sound.element),
    ],
    fields,
    submitLabel: "Save",
    label: `${TYPE_FACTS[type].label} alert settings`,
    save: async () => {
      const sent = values();
      const answer = await sendData<{ settings: AlertSettings }>(
        "PUT",
        `/api/dashboard/alerts/types/${type}`,
        sent,
      );
      options.saved(answer.settings);
      saved = sent;
      // Unsaved only if something was edited while the save was on its way.
      edited();
      return `${TYPE_FACTS[type].label} alert saved.`;
    },
  });
  const edited = () => dirty(JSON.stringify(values()) !== JSON.stringify(saved));
  form.addEventListener("input", edited);
  form.addEventListener("change", edited);
  options.assets.onChange(form, () => {
    saved = {
      ...saved,
      imageId: kept(options.assets, "image", saved.imageId),
      soundId: kept(options.assets, "sound", saved.soundId),
    };
    edited();
  });
  return form;
}

/** "Send a test alert": the type's sample event on the overlays now; `sent` runs after it was. */
interface TestButton {
  element: HTMLElement;
  /** While the form holds unsaved changes the test waits: tests use the saved settings. */
  unsaved(yes: boolean): void;
}

function testButton(type: AlertType, sent: () => void): TestButton {
  const status = h("p", { class: "save-status", role: "status" });
  const hint = h(
    "p",
    { class: "hint", id: `alert-${type}-test-hint`, hidden: true },
    "Save first: tests use your saved settings.",
  );
  const button = h(
    "button",
    { type: "button", class: "secondary", id: `alert-${type}-test`, "aria-describedby": hint.id },
    "Send a test alert",
  );
  let unsaved = false;
  let sending = false;
  button.addEventListener("click", async () => {
    if (unsaved || sending) return;
    sending = true;
    button.disabled = true;
    fill(status);
    try {
      await sendData("POST", "/api/dashboard/alerts/test", { type });
      fill(status, h("span", { class: "ok-text" }, "Test alert sent: watch the preview."));
      sent();
    } catch (error) {
      fill(status, h("span", { class: "error-text" }, errorMessage(error)));
      announce(`The test alert failed. ${errorMessage(error)}`, "error");
    } finally {
      sending = false;
      button.disabled = unsaved;
    }
  });
  return {
    element: h("div", { class: "alerts-test" }, button, hint, status),
    unsaved: (yes) => {
      unsaved = yes;
      hint.hidden = !yes;
      button.disabled = yes || sending;
    },
  };
}

function onOff(settings: AlertSettings): HTMLElement {
  return h(
    "span",
    { class: settings.enabled ? "badge chat-connected" : "badge tq-off" },
    settings.enabled ? "On" : "Off",
  );
}

/** The type's disclosure: its name and on/off, opening onto the form and the test button. */
export function typeSection(options: Omit<TypeFormOptions, "saved"> & { tested: () => void }): HTMLElement {
  const { type } = options.info;
  const badge = h("span", { class: "alerts-type-badge" }, onOff(options.info.settings));
  const test = testButton(type, options.tested);
  const form = typeForm({ ...options, saved: (settings) => fill(badge, onOff(settings)) }, test.unsaved);
  return h(
    "details",
    { class: "alerts-type", id: `alert-type-${type}` },
    h(
      "summary",
      { id: uid("summary") },
      h("span", { class: "alerts-type-name" }, TYPE_FACTS[type].label),
      badge,
    ),
    h("div", { class: "alerts-type-body" }, form, test.element),
  );
}
