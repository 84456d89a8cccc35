// The channel's custom commands as a list: name, response, who can use it, cooldown, alias and count;
// a filter; per command Edit (a dialog with the same form as adding), Delete (confirmed) and, for a
// counter (a response with $(count)), its count set in place.
import { errorMessage, sendData } from "../../lib/api.ts";
import { confirmDialog } from "../../lib/dialog.ts";
import { fill, h, uid } from "../../lib/dom.ts";
import { type Field, field, validLocally } from "../../lib/form-fields.ts";
import { focusFirstInput, openModal } from "../../lib/modal.ts";
import { announce } from "../../lib/states.ts";
import { showRefusal } from "./fields.ts";
import { commandForm } from "./form.ts";
import {
  ALIAS_PASS_THROUGH,
  type CommandList,
  type CustomCommand,
  commandPath,
  cooldownText,
  isCounter,
  LEVEL_BADGES,
  LIMITS,
  shown,
} from "./model.ts";

export interface ListActions {
  /** Who the edit dialog's preview answers at first. */
  viewer: string;
  /**
   * Loads the list again; `focus` names the command whose Edit button gets focus afterwards (the
   * list's heading when it is gone).
   */
  reload: (focus?: string) => void;
}

/** What the streamer typed into the list and has not sent: kept across a reload. */
export interface ListState {
  filter: string;
  /** Counts typed but not set, by command name. */
  counts: Map<string, string>;
}

/** Reads what is typed in the list drawn in `box`. */
export function typedIn(box: HTMLElement): ListState {
  const counts = new Map<string, string>();
  for (const input of box.querySelectorAll<HTMLInputElement>(".cc-count-input")) {
    const name = input.closest<HTMLElement>("[data-command]")?.dataset.command;
    if (name && input.value !== input.defaultValue) counts.set(name, input.value);
  }
  return { filter: box.querySelector<HTMLInputElement>(".cc-filter input")?.value ?? "", counts };
}

/** Puts back what `typedIn` read, into the list just drawn. */
function restore(box: HTMLElement, state: ListState): void {
  for (const [name, value] of state.counts) {
    const input = box.querySelector<HTMLInputElement>(`[data-command="${CSS.escape(name)}"] .cc-count-input`);
    if (input) input.value = value;
  }
  const filter = box.querySelector<HTMLInputElement>(".cc-filter input");
  if (filter && state.filter !== "") {
    filter.value = state.filter;
    filter.dispatchEvent(new Event("input"));
  }
}

/** The count of a counter, set in place (PUT …/count). */
function counterForm(command: CustomCommand, shownCount: HTMLElement): HTMLFormElement {
  const fields: Field[] = [];
  const input = h("input", {
    type: "number",
    inputmode: "numeric",
    value: command.count,
    min: LIMITS.count.min,
    max: LIMITS.count.max,
    step: 1,
    required: true,
    class: "cc-count-input",
  });
  const status = h("span", { class: "save-status", role: "status" });
  const form = h(
    "form",
    { class: "cc-counter", novalidate: true },
    field("count", `Count of ${shown(command.name)}`, input, fields),
    h("button", { type: "submit", class: "secondary small" }, "Set count"),
    status,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    fill(status);
    if (!validLocally(fields)) return;
    try {
      const set = await sendData<{ count: number }>("PUT", `${commandPath(command.name)}/count`, {
        count: input.valueAsNumber,
      });
      command.count = set.count;
      input.defaultValue = String(set.count);
      shownCount.textContent = countText(command);
      fill(status, h("span", { class: "ok-text" }, "Set."));
      announce(`The count of ${shown(command.name)} is now ${set.count}.`);
    } catch (error) {
      showRefusal(error, status, fields, "count");
    }
  });
  return form;
}

function countText(command: CustomCommand): string {
  return `count ${command.count}`;
}

function editDialog(command: CustomCommand, actions: ListActions): void {
  const modal = openModal(`Edit ${shown(command.name)}`, () => {}, "cc-dialog");
  modal.body.append(
    commandForm({
      command,
      viewer: actions.viewer,
      // The list follows the save even when the dialog was closed while it was under way.
      onSaved: () => {
        modal.close();
        actions.reload(command.name);
      },
    }),
  );
  focusFirstInput(modal);
}

/** The command shown next to `name` (after it, else before it), whose Edit takes focus once it is deleted. */
function neighbourOf(name: string): string | undefined {
  const row = document.querySelector<HTMLElement>(`[data-command="${CSS.escape(name)}"]`);
  const visible = (el: Element | null | undefined): el is HTMLElement =>
    el instanceof HTMLElement && !el.hidden;
  let next = row?.nextElementSibling;
  while (next && !visible(next)) next = next.nextElementSibling;
  let previous = row?.previousElementSibling;
  while (previous && !visible(previous)) previous = previous.previousElementSibling;
  return ((visible(next) ? next : undefined) ?? (visible(previous) ? previous : undefined))?.dataset.command;
}

async function remove(command: CustomCommand, actions: ListActions): Promise<void> {
  const ok = await confirmDialog({
    title: `Delete ${shown(command.name)}?`,
    message: `Chat's ${shown(command.name)} stops answering${isCounter(command.response) ? ", and its count is gone" : ""}. This cannot be undone.`,
    confirmLabel: "Delete",
    danger: true,
  });
  if (!ok) return;
  try {
    await sendData("DELETE", commandPath(command.name));
    announce(`${shown(command.name)} deleted.`);
    // Focus moves to the next command (the heading when none is left), not to the page.
    actions.reload(neighbourOf(command.name) ?? command.name);
  } catch (error) {
    announce(`${shown(command.name)} was not deleted. ${errorMessage(error)}`, "error");
  }
}

function responseText(command: CustomCommand): HTMLElement {
  if (command.aliasTarget && command.response === ALIAS_PASS_THROUGH)
    return h("p", { class: "cc-response muted" }, "Passes the viewer's words on to the alias.");
  return h("p", { class: "cc-response" }, command.response);
}

function badges(command: CustomCommand, count: HTMLElement): HTMLElement {
  return h(
    "p",
    { class: "cc-meta" },
    h("span", { class: "badge" }, LEVEL_BADGES[command.userLevel]),
    h("span", { class: "badge" }, cooldownText(command.cooldownSeconds)),
    command.userCooldownSeconds
      ? h("span", { class: "badge" }, `${command.userCooldownSeconds} s per viewer`)
      : null,
    command.aliasTarget ? h("span", { class: "badge" }, `alias of ${shown(command.aliasTarget)}`) : null,
    // A count moves only where the response shows it; another's (an imported one) is shown if set.
    isCounter(command.response) || command.count !== 0 ? count : null,
  );
}

function item(command: CustomCommand, actions: ListActions): HTMLElement {
  const count = h("span", { class: "badge cc-count" }, countText(command));
  return h(
    "li",
    { class: "cc-item", "data-command": command.name },
    h("h3", { class: "cc-name" }, h("code", {}, shown(command.name))),
    responseText(command),
    badges(command, count),
    isCounter(command.response) ? counterForm(command, count) : null,
    h(
      "div",
      { class: "row cc-actions" },
      h(
        "button",
        {
          type: "button",
          class: "secondary small cc-edit",
          "aria-label": `Edit ${shown(command.name)}`,
          onclick: () => editDialog(command, actions),
        },
        "Edit",
      ),
      h(
        "button",
        {
          type: "button",
          class: "secondary small cc-delete",
          "aria-label": `Delete ${shown(command.name)}`,
          onclick: () => void remove(command, actions),
        },
        "Delete",
      ),
    ),
  );
}

/** Shows only the commands whose name or response holds the filter's words. */
function filterInput(items: HTMLElement[], commands: CustomCommand[], shownCount: HTMLElement) {
  const input = h("input", {
    type: "search",
    id: uid("cc-filter"),
    placeholder: "name or text",
    autocomplete: "off",
  });
  input.addEventListener("input", () => {
    const term = input.value.trim().toLowerCase();
    let visible = 0;
    commands.forEach((command, i) => {
      const hit = `${shown(command.name)} ${command.response}`.toLowerCase().includes(term);
      items[i]!.hidden = !hit;
      if (hit) visible++;
    });
    shownCount.textContent = term === "" ? "" : `${visible} shown`;
  });
  return h(
    "div",
    { class: "field cc-filter" },
    h("label", { for: input.id }, "Find a command"),
    input,
    shownCount,
  );
}

/** Draws the list into `box`, with `typed` (what was typed in the list it replaces) put back. */
export function renderList(
  box: HTMLElement,
  list: CommandList,
  actions: ListActions,
  typed?: ListState,
): void {
  const summary = h(
    "p",
    { class: "muted cc-total" },
    `${list.items.length} of ${list.limit} custom commands`,
  );
  if (list.items.length === 0) {
    fill(
      box,
      h(
        "div",
        { class: "state state-empty cc-empty" },
        h(
          "p",
          {},
          "No custom commands yet. Add one below, import your Nightbot or StreamElements list, or have a moderator type in chat:",
        ),
        h("p", {}, h("code", {}, "!addcom !discord Join us at discord.gg/…")),
      ),
    );
    return;
  }
  const items = list.items.map((command) => item(command, actions));
  const filterStatus = h("span", { class: "hint", role: "status" });
  fill(
    box,
    summary,
    list.items.length > 5 ? filterInput(items, list.items, filterStatus) : null,
    h("ul", { class: "cc-list" }, items),
  );
  if (typed) restore(box, typed);
}
