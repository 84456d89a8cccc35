// The form that adds a custom command or edits one: name (when adding), response (with the
// variables it may use and a live preview), user level, alias, and the cooldowns (global, per viewer). The browser checks what it
// can at the field; the server's refusals land at the field they name; a failed save keeps every
// character typed.
import { sendData } from "../../lib/api.ts";
import { h } from "../../lib/dom.ts";
import { type Field, field, showServerError, textInput } from "../../lib/form-fields.ts";
import { handleSave } from "../../lib/form-save.ts";
import { limitLength } from "../../lib/text-limit.ts";
import { checkedBy, cooldownInput, levelSelect, selectField, showRefusal } from "./fields.ts";
import {
  ALIAS_PASS_THROUGH,
  API,
  type CustomCommand,
  commandPath,
  LIMITS,
  NAME_PATTERN,
  shown,
  type UserLevel,
} from "./model.ts";
import { previewPanel } from "./preview.ts";
import { variablesHelp } from "./variables.ts";

export interface FormOptions {
  /** The command edited; a new one is added when absent. */
  command?: CustomCommand;
  /** Who the preview answers at first. */
  viewer: string;
  onSaved: (saved: CustomCommand) => void;
}

/** The inputs of one form, read back as the API's body. */
interface Inputs {
  name: HTMLInputElement;
  response: HTMLTextAreaElement;
  level: HTMLSelectElement;
  cooldown: HTMLInputElement;
  userCooldown: HTMLInputElement;
  alias: HTMLInputElement;
}

const NAME_RULE = `"!" then 1 to ${LIMITS.nameLength} letters a–z, digits or _, like !discord`;

function nameRule(input: HTMLInputElement): () => string {
  return () => {
    const value = input.value.trim();
    if (value === "" || value === "!") return "Give the command a name, like !discord.";
    return NAME_PATTERN.test(value) ? "" : `A name is ${NAME_RULE}.`;
  };
}

/**
 * Why the response cannot be sent as it is, or "": empty without an alias; or only the pass-through an
 * alias is given while the alias is cleared, which would make the command repeat what chatters type
 * (the server refuses it in the same words).
 */
function responseRule(response: HTMLTextAreaElement, alias: HTMLInputElement, command?: CustomCommand) {
  return () => {
    if (alias.value.trim() !== "") return "";
    const text = response.value.trim();
    if (text === "") return "Type what the command answers (or make it an alias of another command).";
    if (command?.aliasTarget && text === ALIAS_PASS_THROUGH)
      return "A response is needed: without its alias the command would repeat what the chatter types; give the command its own response.";
    return "";
  };
}

function inputsOf(command: CustomCommand | undefined): Inputs {
  const name = textInput(command ? shown(command.name) : "", LIMITS.nameLength + 1, {
    placeholder: "!discord",
    spellcheck: "false",
    readonly: command !== undefined,
  });
  // No maxlength: it counts UTF-16 units and cuts a paste short; text-limit counts as the server does.
  const response = h("textarea", { rows: 3, spellcheck: "true" }, command?.response ?? "");
  const alias = textInput(command?.aliasTarget ? shown(command.aliasTarget) : "", LIMITS.nameLength + 1, {
    placeholder: "none",
    spellcheck: "false",
  });
  const inputs: Inputs = {
    name,
    response,
    level: levelSelect(command?.userLevel ?? "everyone"),
    cooldown: cooldownInput(command?.cooldownSeconds ?? LIMITS.defaultCooldown),
    userCooldown: cooldownInput(command?.userCooldownSeconds ?? 0),
    alias,
  };
  if (!command) checkedBy(name, nameRule(name));
  checkedBy(alias, () =>
    alias.value.trim() === "" || NAME_PATTERN.test(alias.value.trim())
      ? ""
      : `An alias names another command: ${NAME_RULE}.`,
  );
  return inputs;
}

/** The body the API takes: an alias without text of its own passes the caller's words on. */
function bodyOf(inputs: Inputs, editing: boolean): Record<string, unknown> {
  const alias = inputs.alias.value.trim().replace(/^!/, "").toLowerCase();
  const response = inputs.response.value;
  const body: Record<string, unknown> = {
    userLevel: inputs.level.value,
    cooldownSeconds: inputs.cooldown.valueAsNumber,
    userCooldownSeconds: inputs.userCooldown.valueAsNumber,
  };
  if (response.trim() !== "") body.response = response;
  else if (editing) body.response = ALIAS_PASS_THROUGH;
  if (alias !== "") body.aliasTarget = alias;
  else if (editing) body.aliasTarget = null;
  if (!editing) body.name = inputs.name.value.trim();
  return body;
}

/** "123 / 500", kept current, with the response's rules as its validity (one line, its length, not empty). */
function responseHint(inputs: Inputs, command?: CustomCommand): HTMLElement {
  const rule = responseRule(inputs.response, inputs.alias, command);
  const counter = limitLength(inputs.response, LIMITS.textLength, { oneLine: true, rule });
  inputs.alias.addEventListener("input", () => inputs.response.dispatchEvent(new Event("input")));
  return h("span", { class: "cc-length" }, "One chat line. ", counter);
}

function fieldsOf(inputs: Inputs, fields: Field[], command?: CustomCommand): Node[] {
  const editing = command !== undefined;
  return [
    editing
      ? null
      : field("name", "Name", inputs.name, fields, document.createTextNode(`${NAME_RULE}; any case`)),
    field("response", "Response", inputs.response, fields, responseHint(inputs, command)),
    variablesHelp(),
    h(
      "div",
      { class: "field-row" },
      selectField("Who can use it", inputs.level, "and everyone above that level"),
      field(
        "aliasTarget",
        "Alias of (optional)",
        inputs.alias,
        fields,
        document.createTextNode("runs that command, with this response as its input"),
      ),
    ),
    h(
      "div",
      { class: "field-row" },
      field(
        "cooldownSeconds",
        "Cooldown (seconds)",
        inputs.cooldown,
        fields,
        document.createTextNode("0 for none, or 5–300; for the whole chat"),
      ),
      field(
        "userCooldownSeconds",
        "Per-viewer cooldown (seconds)",
        inputs.userCooldown,
        fields,
        document.createTextNode("0 for none, or 5–300; each viewer waits this long (moderators never)"),
      ),
    ),
  ].filter((node): node is HTMLElement => node !== null);
}

/** Resets an add form after a save, for the next command. */
function reset(inputs: Inputs, fields: Field[]): void {
  inputs.name.value = "";
  inputs.response.value = "";
  inputs.alias.value = "";
  inputs.level.value = "everyone";
  inputs.cooldown.value = String(LIMITS.defaultCooldown);
  inputs.userCooldown.value = "0";
  for (const input of [inputs.name, inputs.response, inputs.alias, inputs.cooldown, inputs.userCooldown])
    input.dispatchEvent(new Event("input"));
  for (const f of fields) f.error.textContent = "";
}

async function save(options: FormOptions, inputs: Inputs): Promise<CustomCommand> {
  const editing = options.command !== undefined;
  const body = bodyOf(inputs, editing);
  return options.command
    ? await sendData<CustomCommand>("PUT", commandPath(options.command.name), body)
    : await sendData<CustomCommand>("POST", API, body);
}

/** The add (or edit) form with its preview; `options.onSaved` gets the command as stored. */
export function commandForm(options: FormOptions): HTMLFormElement {
  const editing = options.command !== undefined;
  const fields: Field[] = [];
  const inputs = inputsOf(options.command);
  const parts = fieldsOf(inputs, fields, options.command);
  const preview = previewPanel(
    {
      response: () => inputs.response.value,
      userLevel: () => inputs.level.value as UserLevel,
      ...(options.command ? { name: options.command.name } : {}),
    },
    options.viewer,
    fields,
  );
  inputs.response.addEventListener("input", preview.schedule);
  inputs.level.addEventListener("change", preview.schedule);
  const status = h("p", { class: "save-status", role: "status" });
  const submit = h("button", { type: "submit" }, editing ? "Save changes" : "Add command");
  const form = h(
    "form",
    { class: "cc-form", novalidate: true },
    ...parts,
    preview.element,
    h("div", { class: "row" }, submit),
    status,
  );
  handleSave(form, {
    submit,
    status,
    fields: () => fields,
    async save() {
      const saved = await save(options, inputs);
      if (!editing) reset(inputs, fields);
      options.onSaved(saved);
      return editing
        ? { shown: "Saved.", said: `${shown(saved.name)} saved.` }
        : { shown: `${shown(saved.name)} added.` };
    },
    refused: (error) =>
      editing ? showServerError(error, status, fields) : showRefusal(error, status, fields, "name"),
  });
  return form;
}
