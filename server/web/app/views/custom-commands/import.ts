// The import dialog: a Nightbot or StreamElements command list, pasted or read from a file (the JSON
// of the bot's API, or Nightbot's command table copied from its page, which the server reads), is
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
  ["nightbot", "Nightbot (the table from its page, or GET /1/commands)"],
  ["streamelements", "StreamElements (GET /bot/commands)"],
];

/**
 * How to get the list from Nightbot with a browser alone: its public commands page shows the table
 * (copied as tab-separated rows), and the page's own request returns the exact JSON (counts, aliases).
 */
function nightbotSteps(channel: string): HTMLElement {
  const page = `https://nightbot.tv/t/${encodeURIComponent(channel)}/commands`;
  return h(
    "details",
    { class: "cc-import-steps", open: true },
    h("summary", {}, "How to get your list from Nightbot"),
    h(
      "ol",
      {},
      h(
        "li",
        {},
        "Open your Nightbot commands page: ",
        h("a", { href: page, target: "_blank", rel: "noopener noreferrer" }, page),
        " (the page !commands links to in your chat).",
      ),
      h(
        "li",
        {},
        "Select the table from “Command” down to its last row (or the whole page: Ctrl+A, ⌘A on a Mac), copy it (Ctrl+C, ⌘C) and paste it into the box below. If Nightbot shows the list in pages, paste each page below the last.",
      ),
      h("li", {}, "Press Preview: nothing is stored until you press Import."),
    ),
    h(
      "p",
      { class: "muted" },
      "The table has no counts or aliases. To keep them, paste the JSON the same page loads: press F12 on it, open Network, reload the page, click the request named “commands”, open Response, copy all of it and paste it here.",
    ),
  );
}

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
  const input = h("input", {
    type: "file",
    accept: ".json,.txt,application/json,text/plain",
    id: uid("cc-file"),
  });
  input.addEventListener("change", async () => {
    const file = input.files?.[0];
    if (!file) return;
    target.value = await file.text();
    target.dispatchEvent(new Event("input"));
  });
  return h("div", { class: "field" }, h("label", { for: input.id }, "Or choose a file"), input);
}

/**
 * The pasted list: JSON when it looks like JSON (an error at the field when it is not), else the text
 * as it is, which the server reads as Nightbot's command table.
 */
function parsed(list: Field): { ok: true; value: unknown } | { ok: false } {
  const text = list.input.value;
  if (!/^\s*[[{]/.test(text)) return { ok: true, value: text };
  try {
    return { ok: true, value: JSON.parse(text) };
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
export function importDialog(channel: string, onImported: () => void): void {
  const modal = openModal("Import commands", () => {}, "cc-dialog cc-import");
  const fields: Field[] = [];
  const text = h("textarea", {
    rows: 8,
    spellcheck: "false",
    placeholder: "Command  Message  Userlevel  Cooldown\n!discord  Join us: …  Everyone  30s",
  });
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
    "Command list",
    text,
    fields,
    document.createTextNode(
      "The table copied from Nightbot's page, or the JSON of Nightbot's or StreamElements' API for your channel.",
    ),
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
    nightbotSteps(channel),
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
