// Actions (issue 37; CONTRACT §6 "Actions"): when something happens, the stream reacts. The list of
// the account's actions (run now, edit, delete, last runs) and the editor (trigger and ordered steps,
// the scene and source pickers filled from OBS's own lists). The parts are views/actions/.
import { getData } from "../lib/api.ts";
import { demoProgramCard } from "../lib/demo-program.ts";
import { fill, h, uid } from "../lib/dom.ts";
import { newestOnly } from "../lib/latest.ts";
import { OBS_STATE_TEXT } from "../lib/obs-states.ts";
import { every } from "../lib/poll.ts";
import { load, showError } from "../lib/states.ts";
import type { Action, ActionList, ObsInfo } from "../lib/types.ts";
import type { App, View } from "../view.ts";
import { actionForm } from "./actions/form.ts";
import { drawList } from "./actions/list.ts";
import { API } from "./actions/model.ts";
import { SCENE_NAMES, SOURCE_NAMES } from "./actions/steps.ts";

/** The pickers' names and a line on OBS, asked again every 10 s while the view is open. */
function obsNames(root: HTMLElement): HTMLElement {
  const scenes = h("datalist", { id: SCENE_NAMES });
  const sources = h("datalist", { id: SOURCE_NAMES });
  const line = h("p", { class: "muted", id: "actions-obs" });
  const refresh = async () => {
    const info = await getData<ObsInfo>("/api/dashboard/obs");
    fill(
      scenes,
      info.scenes.map((name) => h("option", { value: name })),
    );
    fill(
      sources,
      info.sources.map((name) => h("option", { value: name })),
    );
    fill(
      line,
      `OBS: ${OBS_STATE_TEXT[info.state]}. `,
      info.state === "connected"
        ? "The scene and source fields offer OBS's names; any name can be typed."
        : "Type scene and source names as OBS has them; they are checked when a step runs. ",
      info.state === "connected" ? null : h("a", { href: "#/obs" }, "Connect OBS"),
    );
  };
  void refresh().catch(() => undefined);
  every(root, () => 10_000, refresh);
  return h("div", {}, line, scenes, sources);
}

function render(root: HTMLElement, demo: boolean): void {
  const listHeading = h("h2", { id: uid("actions-list"), tabindex: -1 }, "Your actions");
  const count = h("span", { class: "muted", id: "actions-count" });
  const box = h("div", { id: "actions-list-box" });
  const editorHeading = h("h2", { id: uid("actions-editor"), tabindex: -1 }, "New action");
  const editorBox = h("div", {});
  const newest = newestOnly();
  const show = (list: ActionList) => {
    count.textContent = `${list.items.length} of ${list.limit}`;
    drawList(box, list.items, { edit, changed: reload });
  };
  const reload = () => {
    newest(getData<ActionList>(API))
      .then(show)
      .catch((error: unknown) => showError(box, error, reload));
  };
  const adding = () => {
    editorHeading.textContent = "New action";
    // A new action is in the list; the form starts blank for the next.
    fill(
      editorBox,
      actionForm({
        onSaved: () => {
          reload();
          adding();
        },
      }),
    );
  };
  function edit(action: Action): void {
    editorHeading.textContent = `Edit “${action.name}”`;
    const done = () => {
      adding();
      listHeading.focus();
    };
    const saved = () => {
      reload();
      done();
    };
    fill(editorBox, actionForm({ action, onSaved: saved, onCancel: done }));
    editorHeading.focus();
  }
  adding();
  fill(
    root,
    h(
      "p",
      { class: "lead" },
      "When something happens on stream, the stream reacts: a raid switches the scene, a reward shows a source for a few seconds, a moderator's !brb brings up the BRB scene. Each action is also a button on the Deck.",
    ),
    obsNames(root),
    h(
      "section",
      { class: "card", id: "actions-list", "aria-labelledby": listHeading.id },
      h("div", { class: "cc-card-head" }, listHeading, count),
      box,
    ),
    demo ? demoProgramCard(root) : null,
    h(
      "section",
      { class: "card", id: "actions-editor", "aria-labelledby": editorHeading.id },
      editorHeading,
      editorBox,
    ),
  );
  void load(box, () => newest(getData<ActionList>(API)), show);
}

export const actionsView: View = {
  id: "actions",
  title: "Actions",
  render(root: HTMLElement, app: App) {
    void load(
      root,
      () => app.profile(),
      (profile) => render(root, profile.demo),
    );
  },
};
