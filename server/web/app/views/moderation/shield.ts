// The raid shield: whether it is on now ("On until 14:05", with "End now"), and its settings: how many
// chatters caught (or sending the same text) within how many seconds turn followers-only chat on, and
// how many calm minutes turn it off. The state follows the view's poll; the form is left alone by it.

import type { ShieldSettings } from "../../../../vocabulary.ts";
import { errorMessage, sendData } from "../../lib/api.ts";
import { fill, h, uid } from "../../lib/dom.ts";
import { checkbox, type Field, field, numberInput } from "../../lib/form-fields.ts";
import { time } from "../../lib/format.ts";
import { announce } from "../../lib/states.ts";
import type { ModerationInfo, ShieldInfo } from "../../lib/types.ts";
import { itemForm } from "../timers-quotes/item-form.ts";
import { DEFAULT_SHIELD_SETTINGS, MODERATION_LIMITS, rangeText, shieldState } from "./model.ts";

export interface ShieldCard {
  element: HTMLElement;
  /** Shows whether the shield is on now. */
  update(shield: ShieldInfo): void;
}

type NumberKey = "chatters" | "seconds" | "minutes";

const NUMBERS: readonly { key: NumberKey; label: string; range: { min: number; max: number } }[] = [
  { key: "chatters", label: "Chatters", range: MODERATION_LIMITS.shieldChatters },
  { key: "seconds", label: "Within (seconds)", range: MODERATION_LIMITS.shieldSeconds },
  { key: "minutes", label: "Calm minutes to lift it", range: MODERATION_LIMITS.shieldMinutes },
];

function settingsForm(shield: ShieldInfo, saved: (info: ModerationInfo) => void): HTMLFormElement {
  const fields: Field[] = [];
  const enabled = checkbox(shield.enabled);
  enabled.id = "moderation-shield-enabled";
  const inputs = NUMBERS.map(({ key, label, range }) => {
    const input = numberInput(shield[key], range.min, range.max);
    input.id = `moderation-shield-${key}`;
    const hint = `${rangeText(range)}; default ${DEFAULT_SHIELD_SETTINGS[key]}`;
    return { key, input, element: field(`shield.${key}`, label, input, fields, h("span", {}, hint)) };
  });
  const values = (): ShieldSettings => ({
    enabled: enabled.checked,
    chatters: inputs[0]!.input.valueAsNumber,
    seconds: inputs[1]!.input.valueAsNumber,
    minutes: inputs[2]!.input.valueAsNumber,
  });
  return itemForm({
    parts: [
      h("label", { class: "check" }, enabled, " On: raise the shield by itself (default on)"),
      h(
        "div",
        { class: "field-row" },
        inputs.map((i) => i.element),
      ),
    ],
    fields,
    submitLabel: "Save",
    label: "Raid shield settings",
    save: async () => {
      const answer = await sendData<ModerationInfo>("PUT", "/api/dashboard/moderation", { shield: values() });
      enabled.checked = answer.shield.enabled;
      for (const i of inputs) i.input.value = String(answer.shield[i.key]);
      saved(answer);
      return "Raid shield saved.";
    },
  });
}

export function shieldCard(info: ModerationInfo): ShieldCard {
  const headingId = uid("moderation-shield");
  const badge = h("span", { id: "moderation-shield-state" });
  const line = h("span", { id: "moderation-shield-line" });
  const status = h("p", { class: "save-status", role: "status" });
  const end = h(
    "button",
    { type: "button", class: "secondary small", id: "moderation-shield-end" },
    "End now",
  );
  const update = (shield: ShieldInfo) => {
    const state = shieldState(shield, time);
    badge.className = shield.active ? "badge chat-error" : "badge tq-off";
    badge.textContent = state.label;
    line.textContent = ` ${state.detail}`;
    end.hidden = !shield.active;
  };
  end.addEventListener("click", async () => {
    end.disabled = true;
    fill(status);
    try {
      const answer = await sendData<ModerationInfo>("POST", "/api/dashboard/moderation/shield", {
        active: false,
      });
      update(answer.shield);
      announce("The raid shield was lowered: followers-only chat is off.");
    } catch (error) {
      fill(status, h("span", { class: "error-text" }, errorMessage(error)));
    } finally {
      end.disabled = false;
    }
  });
  update(info.shield);
  const element = h(
    "section",
    { class: "card", id: "moderation-shield", "aria-labelledby": headingId },
    h("h2", { id: headingId }, "Raid shield"),
    h(
      "p",
      { class: "muted" },
      "When a flood of spam arrives, cuebot turns followers-only chat on, says so in one line, and turns it off again once chat is calm.",
    ),
    h("p", { class: "moderation-shield-now" }, badge, line, " ", end),
    status,
    settingsForm(info.shield, (answer) => update(answer.shield)),
  );
  return { element, update };
}
