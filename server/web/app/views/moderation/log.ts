// The moderation log, newest first: when, who, what was done and by which filter, the caught text
// (kept 7 days), "Undo" on a timeout or ban still in force. "Load more" pages back; every 10 s the
// newest page is asked again and what is new goes on top (the rows shown stay, and the keyboard focus
// with them); when more arrived than a page holds, the list starts again from the newest.
import { errorMessage, getData, sendData } from "../../lib/api.ts";
import { fill, h, uid } from "../../lib/dom.ts";
import { every, newestWins } from "../../lib/poll.ts";
import { announce, showError } from "../../lib/states.ts";
import type { ModerationLogItem, ModerationLogPage } from "../../lib/types.ts";
import { whenText } from "../alerts/history.ts";
import { canUndo, FILTER_FACTS, logActionText, logWho, shownText } from "./model.ts";

const PATH = "/api/dashboard/moderation/log";
const EVERY_MS = 10_000;

type Undo = (item: ModerationLogItem, button: HTMLButtonElement) => void;

function row(item: ModerationLogItem, undo: Undo): HTMLElement {
  const button = canUndo(item) ? h("button", { type: "button", class: "secondary small" }, "Undo") : null;
  if (button) {
    button.setAttribute("aria-label", `Undo: ${logActionText(item)} ${logWho(item)}`);
    button.addEventListener("click", () => undo(item, button));
  }
  return h(
    "li",
    { class: "moderation-log-item", "data-id": item.id },
    h(
      "div",
      { class: "moderation-log-what" },
      h("span", { class: `badge moderation-${item.action}` }, logActionText(item)),
      item.filter ? h("span", { class: "badge tq-off" }, FILTER_FACTS[item.filter].label) : null,
      item.undone ? h("span", { class: "badge chat-connected" }, "undone") : null,
      logWho(item) ? [" ", h("strong", {}, logWho(item)), " · "] : " ",
      h("time", { datetime: item.at, class: "muted" }, whenText(item.at)),
    ),
    item.text ? h("p", { class: "moderation-log-text" }, shownText(item.text)) : null,
    button,
  );
}

export interface LogSection {
  element: HTMLElement;
  /** Asks for the newest page again. */
  refresh(): Promise<void>;
}

export function logSection(): LogSection {
  const headingId = uid("moderation-log");
  const box = h("div", { id: "moderation-log" }, h("p", { class: "state state-loading" }, "Loading…"));
  const ol = h("ol", { class: "plain moderation-log" });
  const rows = new Map<number, HTMLElement>();
  const more = h(
    "button",
    { type: "button", class: "secondary", id: "moderation-log-more", hidden: true },
    "Load more",
  );
  const status = h("p", { class: "save-status", role: "status" });
  let cursor: string | null = null;

  const undo: Undo = async (item, button) => {
    const hadFocus = document.activeElement === button;
    button.disabled = true;
    try {
      const answer = await sendData<ModerationLogItem>("POST", `${PATH}/${item.id}/undo`);
      const lifted = row(answer, undo);
      rows.get(item.id)?.replaceWith(lifted);
      rows.set(item.id, lifted);
      // The button is gone: the keyboard goes on from its row.
      if (hadFocus) {
        lifted.tabIndex = -1;
        lifted.focus();
      }
      fill(status);
      announce(`${item.action === "ban" ? "Unbanned" : "Timeout lifted for"} ${logWho(item)}.`);
    } catch (error) {
      button.disabled = false;
      fill(status, h("span", { class: "error-text" }, errorMessage(error)));
    }
  };
  const add = (items: ModerationLogItem[], before: Node | null) => {
    for (const item of items) {
      const li = row(item, undo);
      rows.set(item.id, li);
      ol.insertBefore(li, before);
    }
  };
  const setCursor = (next: string | null) => {
    cursor = next;
    more.hidden = next === null;
  };
  /** The newest page: what is new goes on top; a page with nothing shown before starts the list again. */
  const drawNewest = (page: ModerationLogPage) => {
    const known = page.items.some((item) => rows.has(item.id));
    if (!known) {
      rows.clear();
      ol.replaceChildren();
      setCursor(page.cursor);
    }
    add(
      page.items.filter((item) => !rows.has(item.id)),
      ol.firstChild,
    );
    if (rows.size === 0) fill(box, h("p", { class: "state state-empty" }, "Nothing caught yet."));
    else if (ol.parentElement !== box) fill(box, ol);
  };
  const load = newestWins(() => getData<ModerationLogPage>(PATH));
  const refresh = async () => {
    try {
      const page = await load();
      if (page) drawNewest(page);
    } catch (error) {
      if (rows.size === 0) showError(box, error, () => void refresh().catch(() => {}));
      throw error;
    }
  };
  more.addEventListener("click", async () => {
    if (cursor === null) return;
    more.disabled = true;
    try {
      const page = await getData<ModerationLogPage>(`${PATH}?before=${encodeURIComponent(cursor)}`);
      add(
        page.items.filter((item) => !rows.has(item.id)),
        null,
      );
      setCursor(page.cursor);
      fill(status);
    } catch (error) {
      fill(status, h("span", { class: "error-text" }, errorMessage(error)));
    } finally {
      more.disabled = false;
    }
  });
  const element = h(
    "section",
    { class: "card", "aria-labelledby": headingId },
    h("h2", { id: headingId }, "Moderation log"),
    h(
      "p",
      { class: "muted" },
      "What cuebot did, newest first. Caught messages are kept 7 days. Undo lifts a timeout or a ban.",
    ),
    box,
    h("div", { class: "row" }, more),
    status,
  );
  every(element, () => EVERY_MS, refresh, 0);
  return { element, refresh };
}
