// The moderation log, newest first: when, who, what was done and by which filter, the caught text
// (kept 7 days), "Undo" on a timeout or ban still in force. "Load more" pages back; every 10 s the
// newest page is asked again: what is new goes on top and an entry undone elsewhere is drawn again (the
// other rows stay, and the keyboard focus with them); when more arrived than a page holds, the list
// starts again from the newest.
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

/** The rows shown, by id: the newest page goes on top, older pages below, an undone entry in place. */
class LogRows {
  readonly ol = h("ol", { class: "plain moderation-log" });
  private readonly shown = new Map<number, { item: ModerationLogItem; li: HTMLElement }>();

  constructor(private readonly undo: Undo) {}

  get size(): number {
    return this.shown.size;
  }

  /**
   * The newest page: what is new goes on top, an entry undone since is drawn again. Answers false
   * when none of it was shown (more arrived than a page holds): the list then holds that page alone.
   */
  newest(items: ModerationLogItem[]): boolean {
    const known = items.some((item) => this.shown.has(item.id));
    if (!known) this.clear();
    const first = this.ol.firstChild;
    for (const item of items) {
      const shown = this.shown.get(item.id);
      if (!shown) this.insert(item, first);
      else if (shown.item.undone !== item.undone) this.replace(item);
    }
    return known;
  }

  /** An older page, below. */
  older(items: ModerationLogItem[]): HTMLElement | null {
    const fresh = items.filter((item) => !this.shown.has(item.id));
    return fresh.map((item) => this.insert(item, null))[0] ?? null;
  }

  /** Draws `item` again in its place (undone); answers its new row. */
  replace(item: ModerationLogItem): HTMLElement {
    const li = row(item, this.undo);
    this.shown.get(item.id)?.li.replaceWith(li);
    this.shown.set(item.id, { item, li });
    return li;
  }

  clear(): void {
    this.shown.clear();
    this.ol.replaceChildren();
  }

  private insert(item: ModerationLogItem, before: Node | null): HTMLElement {
    const li = row(item, this.undo);
    this.shown.set(item.id, { item, li });
    this.ol.insertBefore(li, before);
    return li;
  }
}

/** The keyboard goes on from `li` when the control it was on is gone. */
function focusRow(li: HTMLElement): void {
  li.tabIndex = -1;
  li.focus();
}

export interface LogSection {
  element: HTMLElement;
  /** Asks for the newest page again. */
  refresh(): Promise<void>;
}

/** "Load more": the page before `cursor()`, below the rows; hidden on the last page. */
function moreButton(rows: LogRows, status: HTMLElement) {
  let cursor: string | null = null;
  const button = h(
    "button",
    { type: "button", class: "secondary", id: "moderation-log-more", hidden: true },
    "Load more",
  );
  const setCursor = (next: string | null) => {
    cursor = next;
    button.hidden = next === null;
  };
  button.addEventListener("click", async () => {
    if (cursor === null) return;
    const hadFocus = document.activeElement === button;
    button.disabled = true;
    try {
      const page = await getData<ModerationLogPage>(`${PATH}?before=${encodeURIComponent(cursor)}`);
      const first = rows.older(page.items);
      setCursor(page.cursor);
      fill(status);
      if (hadFocus && button.hidden && first) focusRow(first);
    } catch (error) {
      fill(status, h("span", { class: "error-text" }, errorMessage(error)));
    } finally {
      button.disabled = false;
      // Disabling dropped the keyboard focus; it goes back where it was.
      if (hadFocus && !button.hidden) button.focus();
    }
  });
  return { button, setCursor };
}

export function logSection(): LogSection {
  const headingId = uid("moderation-log");
  const box = h("div", { id: "moderation-log" }, h("p", { class: "state state-loading" }, "Loading…"));
  const status = h("p", { class: "save-status", role: "status" });
  const undo: Undo = async (item, button) => {
    const hadFocus = document.activeElement === button;
    button.disabled = true;
    try {
      const lifted = rows.replace(await sendData<ModerationLogItem>("POST", `${PATH}/${item.id}/undo`));
      // The button is gone: the keyboard goes on from its row.
      if (hadFocus) focusRow(lifted);
      fill(status);
      announce(`${item.action === "ban" ? "Unbanned" : "Timeout lifted for"} ${logWho(item)}.`);
    } catch (error) {
      button.disabled = false;
      fill(status, h("span", { class: "error-text" }, errorMessage(error)));
    }
  };
  const rows = new LogRows(undo);
  const more = moreButton(rows, status);
  const load = newestWins(() => getData<ModerationLogPage>(PATH));
  const refresh = async () => {
    try {
      const page = await load();
      if (!page) return;
      if (!rows.newest(page.items)) more.setCursor(page.cursor);
      if (rows.size === 0) fill(box, h("p", { class: "state state-empty" }, "Nothing caught yet."));
      else if (rows.ol.parentElement !== box) fill(box, rows.ol);
    } catch (error) {
      if (rows.size === 0) showError(box, error, () => void refresh().catch(() => {}));
      throw error;
    }
  };
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
    h("div", { class: "row" }, more.button),
    status,
  );
  every(element, () => EVERY_MS, refresh, 0);
  return { element, refresh };
}
