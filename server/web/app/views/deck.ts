// The Deck (issue 37): every action a big button, made for a phone beside the stream. Pressing one
// runs it now; the button says it is busy, then done or the error, for a few seconds. In demo mode
// the simulated OBS's program is under it, so a visitor sees what a press did.
import { getData } from "../lib/api.ts";
import { demoProgramCard } from "../lib/demo-program.ts";
import { fill, h } from "../lib/dom.ts";
import { OBS_STATE_TEXT } from "../lib/obs-states.ts";
import { every } from "../lib/poll.ts";
import { load } from "../lib/states.ts";
import type { Action, ActionList, ObsInfo } from "../lib/types.ts";
import type { App, View } from "../view.ts";
import { API, triggerSummary } from "./actions/model.ts";
import { refusalText, resultLine, runNow } from "./actions/runs.ts";

/** How long a press's outcome stays on its button. */
const OUTCOME_MS = 4000;

function deckButton(action: Action): HTMLElement {
  const note = h("span", { class: "deck-note", "aria-live": "polite" }, triggerSummary(action.trigger));
  const button = h(
    "button",
    { type: "button", class: "deck-button", "data-action-id": action.id },
    h("span", { class: "deck-name" }, action.name),
    note,
  );
  let timer = 0;
  const settle = (text: string, kind: "ok" | "bad") => {
    button.dataset.outcome = kind;
    note.textContent = text;
    button.removeAttribute("aria-busy");
    window.clearTimeout(timer);
    timer = window.setTimeout(() => {
      delete button.dataset.outcome;
      note.textContent = triggerSummary(action.trigger);
    }, OUTCOME_MS);
  };
  button.addEventListener("click", async () => {
    if (button.getAttribute("aria-busy") === "true") return;
    window.clearTimeout(timer);
    button.setAttribute("aria-busy", "true");
    button.dataset.outcome = "busy";
    note.textContent = "Running…";
    try {
      const result = await runNow(action.id);
      settle(resultLine(result), result.ok ? "ok" : "bad");
    } catch (error) {
      settle(refusalText(error), "bad");
    }
  });
  return h("li", { class: "deck-item" }, button);
}

/** A line on OBS's state, asked again every 10 s: a press's OBS steps need it connected. */
function obsLine(root: HTMLElement): HTMLElement {
  const line = h("p", { class: "muted deck-obs", id: "deck-obs", "aria-live": "polite" });
  const refresh = async () => {
    const info = await getData<ObsInfo>("/api/dashboard/obs");
    fill(
      line,
      `OBS: ${OBS_STATE_TEXT[info.state]}`,
      info.state === "connected" ? "" : " · ",
      info.state === "connected" ? null : h("a", { href: "#/obs" }, "Connect OBS"),
    );
  };
  void refresh().catch(() => undefined);
  every(root, () => 10_000, refresh);
  return line;
}

function render(root: HTMLElement, list: ActionList, demo: boolean): void {
  fill(
    root,
    h(
      "p",
      { class: "lead" },
      "Every action as a button: press one to run it now. Add this page to your phone's home screen to use it beside the stream.",
    ),
    obsLine(root),
    list.items.length === 0
      ? h(
          "p",
          { class: "state state-empty" },
          "No actions yet. ",
          h("a", { href: "#/actions" }, "Add one in Actions"),
          ".",
        )
      : h("ul", { class: "deck", id: "deck" }, list.items.map(deckButton)),
    demo ? demoProgramCard(root) : null,
  );
}

export const deckView: View = {
  id: "deck",
  title: "Deck",
  render(root: HTMLElement, app: App) {
    void load(
      root,
      () => Promise.all([getData<ActionList>(API), app.profile()]),
      ([list, profile]) => render(root, list, profile.demo),
    );
  },
};
