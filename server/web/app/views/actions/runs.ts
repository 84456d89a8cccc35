// Running an action now and reading its runs: the outcome of each step in words (the Actions view's
// "Run now" and the Deck share it), and an action's last runs from its run log.
import { ApiError, errorMessage, getData, sendData } from "../../lib/api.ts";
import { fill, h } from "../../lib/dom.ts";
import { dateTime } from "../../lib/format.ts";
import type { ActionRun, RunResult, StepOutcome } from "../../lib/types.ts";
import { actionPath, CAUSE_TEXT, STEP_TEXT } from "./model.ts";

/** What a run that could not start says: busy (a run or its cooldown) in words, else the API's. */
export function refusalText(error: unknown): string {
  if (error instanceof ApiError && error.status === 409)
    return "Busy: it is running or cooling down. Try again in a moment.";
  return errorMessage(error);
}

/** Runs the action now; its steps' outcomes once they ran. */
export function runNow(id: number): Promise<RunResult> {
  return sendData<RunResult>("POST", `${actionPath(id)}/run`);
}

/** The one line a run comes to: "Done (3 steps)" or the failed step's error. */
export function resultLine(result: RunResult): string {
  if (result.ok) return `Done (${result.steps.length} ${result.steps.length === 1 ? "step" : "steps"}).`;
  const failed = result.steps.findLast((step) => !step.ok);
  return `Failed: ${failed?.error ?? "the run did not finish."}`;
}

function outcomeItem(step: StepOutcome): HTMLElement {
  return h(
    "li",
    { class: step.ok ? "outcome ok" : "outcome bad" },
    `${STEP_TEXT[step.type]}: `,
    step.ok ? "done" : (step.error ?? "failed"),
  );
}

/** The steps that ran, in order, each done or its error. */
export function outcomeList(steps: StepOutcome[]): HTMLElement {
  return h("ol", { class: "action-outcomes" }, steps.map(outcomeItem));
}

function runItem(run: ActionRun): HTMLElement {
  return h(
    "li",
    { class: "action-run" },
    h("time", { datetime: run.at }, dateTime(run.at)),
    " ",
    h("span", { class: run.ok ? "badge chat-connected" : "badge chat-error" }, run.ok ? "ok" : "failed"),
    ` ${CAUSE_TEXT[run.cause]}, by ${run.user}`,
    outcomeList(run.steps),
  );
}

/** Loads the action's last runs (newest first) into `box`. */
export async function showRuns(box: HTMLElement, id: number): Promise<void> {
  fill(box, h("p", { class: "muted" }, "Loading…"));
  try {
    const runs = await getData<{ items: ActionRun[] }>(`${actionPath(id)}/runs`);
    fill(
      box,
      runs.items.length === 0
        ? h("p", { class: "muted" }, "No runs yet.")
        : h("ol", { class: "action-runs" }, runs.items.slice(0, 10).map(runItem)),
    );
  } catch (error) {
    fill(box, h("p", { class: "error-text" }, errorMessage(error)));
  }
}
