// The Actions view's list: each action with its trigger in one line, on or off, how its last run
// ended, and its buttons: Run now (the steps' outcomes shown under it), Edit, Delete, and its last runs.
import { errorMessage, sendData } from "../../lib/api.ts";
import { confirmDialog } from "../../lib/dialog.ts";
import { fill, h } from "../../lib/dom.ts";
import { dateTime } from "../../lib/format.ts";
import { announce } from "../../lib/states.ts";
import type { Action } from "../../lib/types.ts";
import { actionPath, triggerSummary } from "./model.ts";
import { outcomeList, refusalText, resultLine, runNow, showRuns } from "./runs.ts";

export interface ListHandlers {
  edit(action: Action): void;
  /** Something changed (a run, a deletion): the list is asked again. */
  changed(): void;
}

function lastRunLine(run: Action["lastRun"]): HTMLElement {
  if (!run) return h("span", { class: "muted" }, "Never run");
  return h(
    "span",
    {},
    "Last run ",
    h("time", { datetime: run.at }, dateTime(run.at)),
    ": ",
    h("span", { class: run.ok ? "outcome ok" : "outcome bad" }, run.ok ? "ok" : (run.error ?? "failed")),
  );
}

/** Runs it, its outcome shown under the row (kept: the list is not redrawn) and in its last-run line. */
async function run(action: Action, button: HTMLButtonElement, out: HTMLElement, last: HTMLElement) {
  button.disabled = true;
  fill(out, h("p", { class: "muted" }, "Running…"));
  try {
    const result = await runNow(action.id);
    const line = resultLine(result);
    fill(out, h("p", { class: result.ok ? "ok-text" : "error-text" }, line), outcomeList(result.steps));
    announce(`${action.name}: ${line}`, result.ok ? "ok" : "error");
    const failed = result.steps.findLast((step) => !step.ok);
    const at = new Date().toISOString();
    fill(last, lastRunLine({ at, ok: result.ok, error: result.ok ? null : (failed?.error ?? null) }));
  } catch (error) {
    fill(out, h("p", { class: "error-text" }, refusalText(error)));
  } finally {
    button.disabled = false;
  }
}

async function remove(action: Action, handlers: ListHandlers): Promise<void> {
  const ok = await confirmDialog({
    title: `Delete “${action.name}”?`,
    message: "Its trigger stops running it, and its run log is gone. This cannot be undone.",
    confirmLabel: "Delete",
    danger: true,
  });
  if (!ok) return;
  try {
    await sendData("DELETE", actionPath(action.id));
    announce(`${action.name} deleted.`);
    handlers.changed();
  } catch (error) {
    announce(`Not deleted. ${errorMessage(error)}`, "error");
  }
}

function runsDetails(action: Action): HTMLElement {
  const box = h("div", {});
  const details = h("details", { class: "action-runs-box" }, h("summary", {}, "Last runs"), box);
  details.addEventListener("toggle", () => {
    if (details.open) void showRuns(box, action.id);
  });
  return details;
}

function actionItem(action: Action, handlers: ListHandlers): HTMLElement {
  const out = h("div", { class: "action-run-out", "aria-live": "polite" });
  const runButton = h(
    "button",
    { type: "button", class: "small", "data-action": "run", "aria-label": `Run now: ${action.name}` },
    "Run now",
  );
  const last = h("span", {}, lastRunLine(action.lastRun));
  runButton.addEventListener("click", () => void run(action, runButton, out, last));
  return h(
    "li",
    { class: "action-item", "data-action-id": action.id },
    h(
      "div",
      { class: "action-item-head" },
      h("h3", { class: "action-name" }, action.name),
      h("span", { class: action.enabled ? "badge chat-connected" : "badge" }, action.enabled ? "on" : "off"),
    ),
    h(
      "p",
      { class: "action-meta" },
      h("span", {}, triggerSummary(action.trigger)),
      " · ",
      `${action.steps.length} ${action.steps.length === 1 ? "step" : "steps"}`,
      " · ",
      last,
    ),
    h(
      "div",
      { class: "row" },
      runButton,
      h(
        "button",
        {
          type: "button",
          class: "secondary small",
          "data-action": "edit",
          "aria-label": `Edit ${action.name}`,
          onclick: () => handlers.edit(action),
        },
        "Edit",
      ),
      h(
        "button",
        {
          type: "button",
          class: "secondary small",
          "data-action": "delete",
          "aria-label": `Delete ${action.name}`,
          onclick: () => void remove(action, handlers),
        },
        "Delete",
      ),
    ),
    out,
    runsDetails(action),
  );
}

/** Draws the list into `box`. */
export function drawList(box: HTMLElement, actions: Action[], handlers: ListHandlers): void {
  if (actions.length === 0) {
    fill(box, h("p", { class: "state state-empty" }, "No actions yet: add one below."));
    return;
  }
  fill(
    box,
    h(
      "ul",
      { class: "action-list" },
      actions.map((action) => actionItem(action, handlers)),
    ),
  );
}
