// One filter's card: on/off, who it never catches, the timeout of a repeat, silent, the warning and
// its own settings (a list edited one entry per line), each with its default; Save sends that filter's
// settings alone. The browser checks each field first; a refusal the server names lands at its field,
// anything else beside the Save button; what was typed stays until it is saved.
import { sendData } from "../../lib/api.ts";
import { h, uid } from "../../lib/dom.ts";
import { checkbox, type Field, field, numberInput, textInput } from "../../lib/form-fields.ts";
import { limitLength } from "../../lib/text-limit.ts";
import type { ModerationInfo } from "../../lib/types.ts";
import { checkedBy, levelSelect, selectField } from "../custom-commands/fields.ts";
import { LEVEL_LABELS, type UserLevel } from "../custom-commands/model.ts";
import { itemForm } from "../timers-quotes/item-form.ts";
import {
  type AnyFilterSettings,
  DEFAULT_FILTER_SETTINGS,
  defaultText,
  FILTER_FACTS,
  type ListSetting,
  listLimitText,
  listOf,
  listProblem,
  MODERATION_LIMITS,
  type ModerationFilter,
  type NumberSetting,
  type OwnSetting,
  rangeText,
  TERMS_ACTION_LABELS,
  TERMS_ACTIONS,
  type TermsAction,
} from "./model.ts";

/** A group of inputs: what they add to the form, what they hold, and how to show stored values. */
interface Part {
  element: HTMLElement;
  read(): Partial<AnyFilterSettings>;
  show(settings: AnyFilterSettings): void;
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const idOf = (filter: ModerationFilter, key: string) => `moderation-${filter}-${key}`;
const pathOf = (filter: ModerationFilter, key: string) => `filters.${filter}.${key}`;

function numberPart(
  filter: ModerationFilter,
  s: AnyFilterSettings,
  setting: NumberSetting,
  fields: Field[],
): Part {
  const input = numberInput(s[setting.key] ?? 0, setting.range.min, setting.range.max);
  input.id = idOf(filter, setting.key);
  const hint = `${rangeText(setting.range)}; ${defaultText(filter, setting)}`;
  return {
    element: field(pathOf(filter, setting.key), setting.label, input, fields, h("span", {}, hint)),
    read: () => ({ [setting.key]: input.valueAsNumber }),
    show: (next) => {
      input.value = String(next[setting.key] ?? "");
    },
  };
}

function listPart(
  filter: ModerationFilter,
  s: AnyFilterSettings,
  setting: ListSetting,
  fields: Field[],
): Part {
  const text = (entries: string[] | undefined) => (entries ?? []).join("\n");
  const input = h("textarea", { rows: 4, id: idOf(filter, setting.key), spellcheck: "false" });
  input.value = text(s[setting.key]);
  checkedBy(input, () => listProblem(listOf(input.value), setting.limits));
  const hint = `${setting.hint} ${listLimitText(setting.limits)}; ${defaultText(filter, setting)}.`;
  return {
    element: field(pathOf(filter, setting.key), setting.label, input, fields, h("span", {}, hint)),
    read: () => ({ [setting.key]: listOf(input.value) }),
    show: (next) => {
      input.value = text(next[setting.key]);
    },
  };
}

function actionPart(filter: ModerationFilter, s: AnyFilterSettings, setting: OwnSetting): Part {
  const select = h(
    "select",
    { id: idOf(filter, setting.key) },
    TERMS_ACTIONS.map((a) => h("option", { value: a, selected: a === s.action }, TERMS_ACTION_LABELS[a])),
  );
  return {
    element: selectField(setting.label, select, `${capitalized(defaultText(filter, setting))}.`),
    read: () => ({ action: select.value as TermsAction }),
    show: (next) => {
      select.value = next.action ?? "timeout";
    },
  };
}

function ownPart(filter: ModerationFilter, s: AnyFilterSettings, setting: OwnSetting, fields: Field[]): Part {
  if (setting.kind === "number") return numberPart(filter, s, setting, fields);
  if (setting.kind === "list") return listPart(filter, s, setting, fields);
  return actionPart(filter, s, setting);
}

/** Who is never caught and the timeout of a repeat, side by side. */
function levelAndTimeout(filter: ModerationFilter, s: AnyFilterSettings, fields: Field[]): Part {
  const defaults = DEFAULT_FILTER_SETTINGS[filter];
  const exempt = levelSelect(s.exempt);
  exempt.id = idOf(filter, "exempt");
  const L = MODERATION_LIMITS.timeoutSeconds;
  const timeout = numberInput(s.timeoutSeconds, L.min, L.max);
  timeout.id = idOf(filter, "timeoutSeconds");
  return {
    element: h(
      "div",
      {},
      selectField(
        "Never catch (this level and above)",
        exempt,
        `Default: ${LEVEL_LABELS[defaults.exempt].toLowerCase()}. You and your moderators are never caught.`,
      ),
      field(
        pathOf(filter, "timeoutSeconds"),
        "Timeout for a repeat (seconds)",
        timeout,
        fields,
        h("span", {}, `${rangeText(L)} (two weeks); default ${defaults.timeoutSeconds}.`),
      ),
    ),
    read: () => ({ exempt: exempt.value as UserLevel, timeoutSeconds: timeout.valueAsNumber }),
    show: (next) => {
      exempt.value = next.exempt;
      timeout.value = String(next.timeoutSeconds);
    },
  };
}

/** Silent and the warning line. */
function warningPart(filter: ModerationFilter, s: AnyFilterSettings, fields: Field[]): Part {
  const defaults = DEFAULT_FILTER_SETTINGS[filter];
  const silent = checkbox(s.silent);
  silent.id = idOf(filter, "silent");
  const message = textInput(s.message, 1000, { id: idOf(filter, "message"), required: true });
  const counter = limitLength(message, MODERATION_LIMITS.messageLength, { oneLine: true });
  return {
    element: h(
      "div",
      {},
      h("label", { class: "check" }, silent, " Silent: delete without a warning line (default off)"),
      field(
        pathOf(filter, "message"),
        "Warning (sent after @name)",
        message,
        fields,
        h("span", {}, `Default: “${defaults.message}” · `, counter),
      ),
    ),
    read: () => ({ silent: silent.checked, message: message.value.trim() }),
    show: (next) => {
      silent.checked = next.silent;
      message.value = next.message;
      message.dispatchEvent(new Event("input"));
    },
  };
}

function enabledPart(filter: ModerationFilter, s: AnyFilterSettings): Part {
  const enabled = checkbox(s.enabled);
  enabled.id = idOf(filter, "enabled");
  return {
    element: h("label", { class: "check" }, enabled, " On: catch these lines (default on)"),
    read: () => ({ enabled: enabled.checked }),
    show: (next) => {
      enabled.checked = next.enabled;
    },
  };
}

/** The card of `filter`, showing `settings`. */
export function filterCard(filter: ModerationFilter, settings: AnyFilterSettings): HTMLElement {
  const facts = FILTER_FACTS[filter];
  const fields: Field[] = [];
  const parts = [
    enabledPart(filter, settings),
    ...facts.own.map((setting) => ownPart(filter, settings, setting, fields)),
    levelAndTimeout(filter, settings, fields),
    warningPart(filter, settings, fields),
  ];
  const values = () => Object.assign({}, ...parts.map((p) => p.read())) as Partial<AnyFilterSettings>;
  const form = itemForm({
    parts: parts.map((p) => p.element),
    fields,
    submitLabel: "Save",
    label: `${facts.label} filter settings`,
    save: async () => {
      const answer = await sendData<ModerationInfo>("PUT", "/api/dashboard/moderation", {
        filters: { [filter]: values() },
      });
      const stored: AnyFilterSettings = answer.filters[filter];
      for (const part of parts) part.show(stored);
      return `${facts.label} filter saved.`;
    },
  });
  const headingId = uid("moderation-filter");
  return h(
    "section",
    { class: "card moderation-filter", id: `moderation-filter-${filter}`, "aria-labelledby": headingId },
    h("h3", { id: headingId }, facts.label),
    h("p", { class: "muted" }, facts.catches),
    form,
  );
}
