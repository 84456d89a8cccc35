// One timer in the list: its name, message, rhythm and last post, an on/off switch that saves at
// once, and Edit (the form in its place) and Delete (confirmed).
import { errorMessage, sendData } from "../../lib/api.ts";
import { fill, h, uid } from "../../lib/dom.ts";
import { plural } from "../../lib/format.ts";
import { announce } from "../../lib/states.ts";
import { confirmAndDelete, momentText, rowActions } from "./rows.ts";
import { timerForm } from "./timer-form.ts";
import type { Timer, TimerFields } from "./types.ts";

export interface TimerRowHooks {
  /** The timer was deleted and its row is about to go. */
  deleted: (row: HTMLElement) => void;
}

function rhythm(timer: Timer): string {
  const posted =
    timer.lastPostedAt === null ? "not posted yet" : `last posted ${momentText(timer.lastPostedAt)}`;
  return `Every ${timer.intervalMinutes} min · after ${plural(timer.minChatLines, "chat line")} · ${posted}`;
}

function put(id: number, changes: Partial<TimerFields>): Promise<Timer> {
  return sendData<Timer>("PUT", `/api/dashboard/timers/${id}`, changes);
}

/** The on/off switch: saved as soon as it is flipped, put back if the server refuses. */
function enabledSwitch(timer: Timer, status: HTMLElement, changed: (next: Timer) => void): HTMLElement {
  const input = h("input", { type: "checkbox", checked: timer.enabled });
  input.addEventListener("change", async () => {
    input.disabled = true;
    fill(status);
    try {
      const next = await put(timer.id, { enabled: input.checked });
      announce(`Timer ${next.name} turned ${next.enabled ? "on" : "off"}.`);
      changed(next);
    } catch (error) {
      input.checked = !input.checked;
      fill(status, h("span", { class: "error-text" }, errorMessage(error)));
    } finally {
      input.disabled = false;
    }
  });
  return h(
    "label",
    { class: "check tq-switch" },
    input,
    "On",
    h("span", { class: "sr-only" }, ` timer ${timer.name}`),
  );
}

export function timerRow(initial: Timer, hooks: TimerRowHooks): HTMLLIElement {
  const row = h("li", { class: "tq-item", "data-timer": initial.id });
  let timer = initial;

  const show = (focusEdit: boolean) => {
    const status = h("p", { class: "save-status", role: "status" });
    // The switch says "On"; only a timer that is off gets a word beside its name.
    const badge = h("span", { class: "badge tq-off", hidden: timer.enabled }, "Off");
    const actions = rowActions(
      `timer ${timer.name}`,
      edit,
      () => void remove(status),
      enabledSwitch(timer, status, (next) => {
        timer = next;
        badge.hidden = next.enabled;
      }),
    );
    const nameId = uid("timer");
    row.setAttribute("aria-labelledby", nameId);
    row.classList.remove("tq-editing");
    fill(
      row,
      h(
        "div",
        { class: "tq-body" },
        h("div", { class: "tq-head" }, h("h3", { id: nameId, class: "tq-name" }, timer.name), badge),
        h("p", { class: "tq-text" }, timer.message),
        h("p", { class: "tq-meta" }, rhythm(timer)),
      ),
      actions.element,
      status,
    );
    if (focusEdit) actions.edit.focus();
  };

  function edit(): void {
    const form = timerForm({
      initial: timer,
      label: `Edit timer ${timer.name}`,
      save: async (values) => {
        timer = await put(timer.id, values);
        show(true);
        return `Timer ${timer.name} saved.`;
      },
      cancel: () => show(true),
    });
    row.classList.add("tq-editing");
    fill(row, form);
    form.querySelector<HTMLElement>("input, textarea")?.focus();
  }

  async function remove(status: HTMLElement): Promise<void> {
    const deleted = await confirmAndDelete({
      title: `Delete the timer ${timer.name}?`,
      message: "It stops posting at once. This cannot be undone.",
      path: `/api/dashboard/timers/${timer.id}`,
      done: `Timer ${timer.name} deleted.`,
      status,
    });
    if (deleted) hooks.deleted(row);
  }

  show(false);
  return row;
}
