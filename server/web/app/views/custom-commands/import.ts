// The import dialog: a Nightbot or StreamElements command list, pasted or read from a file, is
// previewed first (what will be added, adjusted, in conflict, not expressible: POST
// /custom-commands/import without `apply`), and stored only when the streamer presses Import, all of
// it or nothing. Changing the list after a preview asks for a new preview.
import { errorMessage, sendData } from "../../lib/api.ts";
import { fill, h, uid } from "../../lib/dom.ts";
import { type Field, field, validLocally } from "../../lib/form-fields.ts";
import { plural } from "../../lib/format.ts";
import { focusFirstInput, openModal } from "../../lib/modal.ts";
import { announce } from "../../lib/states.ts";
import { errorAt, selectField, showRefusal } from "./fields.ts";
import {
  API,
  type ImportNote,
  type ImportResult,
  LEVEL_BADGES,
  type PlannedCommand,
  shown,
} from "./model.ts";

const FORMATS: [string, string][] = [
  ["detect", "Recognise it from the list"],
  ["nightbot", "Nightbot (GET /1/commands)"],
  ["streamelements", "StreamElements (GET /bot/commands)"],
];

/** One group of the plan: a heading with its size and a line per command. */
function group(title: string, className: string, lines: Node[]): HTMLElement | null {
  if (lines.length === 0) return null;
  return h(
    "section",
    { class: `cc-import-group ${className}` },
    h("h3", {}, `${title} (${lines.length})`),
    h(
      "ul",
      {},
      lines.map((line) => h("li", {}, line)),
    ),
  );
}

function noteLine(note: ImportNote): Node {
  return h("span", {}, h("code", {}, shown(note.name)), `: ${note.why}`);
}

function addLine(command: PlannedCommand): Node {
  return h(
    "span",
    {},
    h("code", {}, shown(command.name)),
    ` ${LEVEL_BADGES[command.level]}: `,
    h("span", { class: "muted" }, command.aliasOf ? `alias of ${shown(command.aliasOf)}` : command.response),
  );
}

function planView(plan: ImportResult): Node[] {
  const added = plan.applied ? (plan.stored ?? []).map((c) => c.name) : null;
  return [
    h(
      "p",
      { class: "cc-import-summary" },
      plan.applied
        ? `Imported ${plural(added?.length ?? 0, "command")} from ${plan.format === "nightbot" ? "Nightbot" : "StreamElements"}.`
        : `Read as a ${plan.format === "nightbot" ? "Nightbot" : "StreamElements"} list. Nothing is stored until you press Import.`,
    ),
    group(
      plan.applied ? "Added" : "Will be added",
      "cc-import-add",
      added ? added.map((name) => h("code", {}, shown(name))) : (plan.add ?? []).map(addLine),
    ),
    group("Adjusted to fit", "cc-import-adjusted", plan.adjusted.map(noteLine)),
    group("In conflict, skipped", "cc-import-conflicts", plan.conflicts.map(noteLine)),
    group("Cannot be expressed, skipped", "cc-import-unsupported", plan.unsupported.map(noteLine)),
  ].filter((node): node is HTMLElement => node !== null);
}

/** Reads the chosen file into the textarea. */
function fileInput(target: HTMLTextAreaElement): HTMLElement {
  const input = h("input", { type: "file", accept: ".json,application/json", id: uid("cc-file") });
  input.addEventListener("change", async () => {
    const file = input.files?.[0];
    if (!file) return;
    target.value = await file.text();
    target.dispatchEvent(new Event("input"));
  });
  return h("div", { class: "field" }, h("label", { for: input.id }, "Or choose a file"), input);
}

/** The pasted text as JSON, or an error at the field. */
function parsed(list: Field): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(list.input.value) };
  } catch (error) {
    errorAt(list, `This is not JSON: ${errorMessage(error)} Paste the list as the bot's API returns it.`);
    return { ok: false };
  }
}

/** What was previewed, exactly as sent: Import stores this list, whatever the textarea holds since. */
interface Previewed {
  format: string;
  body: unknown;
}

/** Opens the import dialog; `onImported` runs as soon as commands were stored (the dialog stays open). */
export function importDialog(onImported: () => void): void {
  const modal = openModal("Import commands", () => {}, "cc-dialog cc-import");
  const fields: Field[] = [];
  const text = h("textarea", { rows: 8, spellcheck: "false", placeholder: '{"commands": [ … ]}' });
  text.required = true;
  const format = h(
    "select",
    {},
    FORMATS.map(([value, label]) => h("option", { value }, label)),
  );
  const out = h("div", { class: "cc-import-plan", role: "status", "aria-live": "polite" });
  const apply = h("button", { type: "button", hidden: true, class: "cc-import-apply" }, "Import");
  const listField = field(
    "body",
    "Command list (JSON)",
    text,
    fields,
    document.createTextNode("Paste what Nightbot's or StreamElements' API returns for your channel."),
  );
  let previewed: Previewed | null = null;
  // Each request is numbered; a change of the list or the format makes the answers on their way stale.
  let asked = 0;
  let busy = false;
  const send = async (sent: Previewed, commit: boolean) => {
    const ticket = ++asked;
    busy = true;
    apply.disabled = true;
    try {
      const plan = await sendData<ImportResult>("POST", `${API}/import`, { ...sent, apply: commit });
      if (commit) {
        previewed = null;
        announce(`Imported ${plural(plan.stored?.length ?? 0, "command")}.`);
        onImported();
      }
      if (ticket !== asked) return;
      fill(out, planView(plan));
      out.scrollIntoView({ block: "nearest" });
      if (!commit) previewed = sent;
      apply.hidden = commit || (plan.add ?? []).length === 0;
      apply.textContent = `Import ${plural(plan.add?.length ?? 0, "command")}`;
    } catch (error) {
      if (ticket === asked) showRefusal(error, out, fields, "body");
    } finally {
      busy = false;
      apply.disabled = false;
    }
  };
  const preview = () => {
    if (busy || !validLocally(fields)) return;
    const body = parsed(fields[0]!);
    if (body.ok) void send({ format: format.value, body: body.value }, false);
  };
  const commit = () => {
    if (!busy && previewed) void send(previewed, true);
  };
  const invalidate = () => {
    asked++;
    previewed = null;
    apply.hidden = true;
    fill(out);
  };
  text.addEventListener("input", invalidate);
  format.addEventListener("change", invalidate);
  apply.addEventListener("click", commit);
  const form = h(
    "form",
    { novalidate: true, class: "cc-import-form" },
    listField,
    fileInput(text),
    selectField("Format", format),
    h("div", { class: "row" }, h("button", { type: "submit", class: "secondary" }, "Preview"), apply),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    preview();
  });
  modal.body.append(
    h(
      "p",
      { class: "muted" },
      "Existing commands and cuebot's own commands are never replaced. Nothing is stored before you press Import.",
    ),
    form,
    out,
  );
  focusFirstInput(modal);
}
