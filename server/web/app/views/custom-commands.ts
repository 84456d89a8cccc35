// Custom commands (issue 24; CONTRACT §6 "Custom commands and quotes"): the channel's own chat
// commands, Nightbot-style: the list (edit, delete, counters), the add form with a live preview of the
// reply, the import of a Nightbot or StreamElements list, and the regulars. The sections are the
// modules of views/custom-commands/.
import { getData } from "../lib/api.ts";
import { fill, h, uid } from "../lib/dom.ts";
import { newestOnly } from "../lib/latest.ts";
import { load, showError } from "../lib/states.ts";
import type { App, View } from "../view.ts";
import { commandForm } from "./custom-commands/form.ts";
import { importDialog } from "./custom-commands/import.ts";
import { renderList, typedIn } from "./custom-commands/list.ts";
import { API, type CommandList } from "./custom-commands/model.ts";
import { regularsCard } from "./custom-commands/regulars.ts";

/** The list card: the commands, reloaded after every change, and the import button. */
function listCard(viewer: string, channel: string): { card: HTMLElement; reload: (focus?: string) => void } {
  const headingId = uid("cc-list");
  const heading = h("h2", { id: headingId, tabindex: -1 }, "Your commands");
  const box = h("div", { class: "cc-list-box" });
  // Only the newest answer is drawn, however a burst of reloads comes back.
  const newest = newestOnly();
  const show = (list: CommandList, focus?: string) => {
    renderList(box, list, { viewer, reload }, typedIn(box));
    if (focus === undefined) return;
    const edit = box.querySelector<HTMLElement>(`[data-command="${CSS.escape(focus)}"] .cc-edit`);
    (edit ?? heading).focus();
  };
  // After a change the list is redrawn in place (no "Loading…" in between, so the page keeps its
  // scroll), keeping the filter and any count typed but not set.
  const reload = (focus?: string) => {
    newest(getData<CommandList>(API))
      .then((list) => show(list, focus))
      .catch((error: unknown) => showError(box, error, () => reload(focus)));
  };
  const card = h(
    "section",
    { class: "card", id: "cc-commands", "aria-labelledby": headingId },
    h(
      "div",
      { class: "cc-card-head" },
      heading,
      h(
        "button",
        {
          type: "button",
          class: "secondary small",
          id: "cc-import",
          onclick: () => importDialog(channel, () => reload()),
        },
        "Import from Nightbot or StreamElements",
      ),
    ),
    box,
  );
  void load(
    box,
    () => newest(getData<CommandList>(API)),
    (list) => show(list),
  );
  return { card, reload };
}

function addCard(viewer: string, reload: () => void): HTMLElement {
  const headingId = uid("cc-add");
  return h(
    "section",
    { class: "card", id: "cc-add", "aria-labelledby": headingId },
    h("h2", { id: headingId }, "Add a command"),
    commandForm({ viewer, onSaved: () => reload() }),
  );
}

function render(root: HTMLElement, viewer: string, channel: string): void {
  const list = listCard(viewer, channel);
  fill(
    root,
    h(
      "p",
      { class: "lead" },
      "Your own chat commands, as Nightbot has them: ",
      h("code", {}, "!discord"),
      ", ",
      h("code", {}, "!lurk"),
      ", counters like ",
      h("code", {}, "!deaths"),
      ". cuebot answers them in your chat when native chat is on. Moderators can manage them from chat too, with ",
      h("code", {}, "!addcom"),
      ", ",
      h("code", {}, "!editcom"),
      " and ",
      h("code", {}, "!delcom"),
      ".",
    ),
    list.card,
    h("div", { class: "split cc-split" }, addCard(viewer, list.reload), regularsCard()),
  );
}

export const customCommandsView: View = {
  id: "custom-commands",
  title: "Custom commands",
  render(root: HTMLElement, app: App) {
    void load(
      root,
      () => app.profile(),
      (profile) => render(root, profile.demo ? "viewer_anna" : profile.login, profile.login),
    );
  },
};
