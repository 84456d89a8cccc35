// The last alerts, newest first: what, who, how much, when, test alerts and replays marked, each with
// "Replay" (shown again on the overlays). Reloaded after a test, a replay or a simulated event, and
// every 10 s while the view is open (never two at once; the newest answer wins). Rows are kept by id,
// so a refresh adds the new ones and leaves the others (and the keyboard focus) where they are; once
// drawn, a failed refresh keeps the list and says so in a quiet line.
import { ApiError, errorMessage, getData, sendData } from "../../lib/api.ts";
import { fill, h, uid } from "../../lib/dom.ts";
import { dateTime, time } from "../../lib/format.ts";
import { every, newestWins } from "../../lib/poll.ts";
import { announce, showError } from "../../lib/states.ts";
import { amountText, type HistoryItem, TYPE_FACTS } from "./types.ts";

const SHOWN = 20;
const EVERY_MS = 10_000;

/** The time alone for today's alerts, the date and time for older ones. */
export function whenText(iso: string, now = new Date()): string {
  return new Date(iso).toDateString() === now.toDateString() ? time(iso) : dateTime(iso);
}

type Replay = (item: HistoryItem, button: HTMLButtonElement) => void;

function row(item: HistoryItem, replay: Replay): HTMLElement {
  const button = h("button", { type: "button", class: "secondary small" }, "Replay");
  button.setAttribute("aria-label", `Replay: ${item.text}`);
  button.addEventListener("click", () => replay(item, button));
  const amount = amountText(item.type, item.fields);
  return h(
    "li",
    { class: "alerts-history-item", "data-id": item.id },
    h(
      "div",
      { class: "alerts-history-what" },
      h("span", { class: "badge" }, TYPE_FACTS[item.type].label),
      item.test ? h("span", { class: "badge tq-off" }, "test") : null,
      item.replay ? h("span", { class: "badge tq-off" }, "replay") : null,
      " ",
      h("strong", {}, item.fields.user),
      amount ? ` · ${amount}` : "",
      h("time", { datetime: item.at, class: "muted" }, ` · ${whenText(item.at)}`),
    ),
    h("p", { class: "alerts-history-text" }, item.text),
    button,
  );
}

/** Draws `items` into `ol` keeping the rows already there (by id): only new rows are inserted. */
function syncRows(
  ol: HTMLElement,
  rows: Map<number, HTMLElement>,
  items: HistoryItem[],
  replay: Replay,
): void {
  const wanted = new Set(items.map((i) => i.id));
  for (const [id, li] of rows)
    if (!wanted.has(id)) {
      li.remove();
      rows.delete(id);
    }
  items.forEach((item, index) => {
    let li = rows.get(item.id);
    if (!li) {
      li = row(item, replay);
      rows.set(item.id, li);
    } else {
      const text = li.querySelector(".alerts-history-text");
      if (text && text.textContent !== item.text) text.textContent = item.text;
    }
    const here = ol.children[index] ?? null;
    if (here !== li) ol.insertBefore(li, here);
  });
}

export interface HistorySection {
  element: HTMLElement;
  /** Loads the list again (after a test, a replay or a simulated event). */
  refresh(): Promise<void>;
}

export function historySection(): HistorySection {
  const headingId = uid("alerts-history");
  const list = h("div", { id: "alerts-history" }, h("p", { class: "state state-loading" }, "Loading…"));
  const ol = h("ol", { class: "plain alerts-history" });
  const rows = new Map<number, HTMLElement>();
  const status = h("p", { class: "save-status", role: "status" });
  const staleLine = h("p", { class: "muted alerts-stale", hidden: true }, "Couldn't refresh; trying again.");
  const load = newestWins(() =>
    getData<{ items: HistoryItem[] }>(`/api/dashboard/alerts/history?limit=${SHOWN}`),
  );
  let drawn = false;
  const replay: Replay = async (item, button) => {
    const hadFocus = document.activeElement === button;
    button.disabled = true;
    try {
      await sendData("POST", `/api/dashboard/alerts/history/${item.id}/replay`);
      announce(`Replayed: ${item.text}`);
      fill(status);
      void refresh().catch(() => {});
    } catch (error) {
      fill(status, h("span", { class: "error-text" }, errorMessage(error)));
    } finally {
      button.disabled = false;
      // Disabling dropped the keyboard focus; it goes back where it was.
      if (hadFocus) button.focus();
    }
  };
  const draw = (items: HistoryItem[]) => {
    syncRows(ol, rows, items, replay);
    if (items.length === 0)
      fill(list, h("p", { class: "state state-empty" }, "No alerts yet. Send a test alert to see one here."));
    else if (ol.parentElement !== list) fill(list, ol);
    drawn = true;
    staleLine.hidden = true;
  };
  const refresh = async () => {
    try {
      const answer = await load();
      if (answer) draw(answer.items);
    } catch (error) {
      if (drawn) staleLine.hidden = false;
      // The poll itself waits for Retry-After: no second countdown that would ask again beside it.
      else if (error instanceof ApiError && error.status === 429)
        fill(
          list,
          h(
            "p",
            { class: "state state-loading" },
            "Too many requests right now; the list loads by itself shortly.",
          ),
        );
      else showError(list, error, () => void refresh().catch(() => {}));
      throw error;
    }
  };
  const element = h(
    "section",
    { class: "card", "aria-labelledby": headingId },
    h("h2", { id: headingId }, "History"),
    h("p", { class: "muted" }, "The last alerts, newest first. Replay shows one again on your overlays."),
    h(
      "p",
      { class: "muted", id: "alerts-history-note" },
      "Texts follow your current templates; alerts below a minimum are listed but were not shown.",
    ),
    list,
    staleLine,
    status,
  );
  every(element, () => EVERY_MS, refresh, 0);
  return { element, refresh };
}
