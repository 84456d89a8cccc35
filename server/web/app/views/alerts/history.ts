// The last alerts, newest first: what, who, how much, when, test alerts and replays marked, each with
// "Replay" (shown again on the overlays). Reloaded after a test, a replay or a simulated event, and
// every few seconds while the view is open; the newest answer wins.
import { errorMessage, getData, sendData } from "../../lib/api.ts";
import { fill, h, uid } from "../../lib/dom.ts";
import { time } from "../../lib/format.ts";
import { every, newestWins } from "../../lib/poll.ts";
import { announce, showError } from "../../lib/states.ts";
import { amountText, type HistoryItem, TYPE_FACTS } from "./types.ts";

const SHOWN = 20;

function row(item: HistoryItem, replay: (item: HistoryItem, button: HTMLButtonElement) => void): HTMLElement {
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
      h("time", { datetime: item.at, class: "muted" }, ` · ${time(item.at)}`),
    ),
    h("p", { class: "alerts-history-text" }, item.text),
    button,
  );
}

export interface HistorySection {
  element: HTMLElement;
  /** Loads the list again (after a test, a replay or a simulated event). */
  refresh(): void;
}

export function historySection(): HistorySection {
  const headingId = uid("alerts-history");
  const list = h("div", { id: "alerts-history" }, h("p", { class: "state state-loading" }, "Loading…"));
  const status = h("p", { class: "save-status", role: "status" });
  const fetch = newestWins(() =>
    getData<{ items: HistoryItem[] }>(`/api/dashboard/alerts/history?limit=${SHOWN}`),
  );
  // What the list shows, as a key; null until the first answer is drawn.
  let shown: string | null = null;
  const replay = async (item: HistoryItem, button: HTMLButtonElement) => {
    button.disabled = true;
    try {
      await sendData("POST", `/api/dashboard/alerts/history/${item.id}/replay`);
      announce(`Replayed: ${item.text}`);
      fill(status);
      refresh();
    } catch (error) {
      fill(status, h("span", { class: "error-text" }, errorMessage(error)));
    } finally {
      button.disabled = false;
    }
  };
  const refresh = () => {
    fetch()
      .then((answer) => {
        if (!answer) return;
        const key = answer.items.map((i) => `${i.id}:${i.text}`).join();
        if (key === shown) return;
        shown = key;
        if (answer.items.length === 0)
          fill(
            list,
            h("p", { class: "state state-empty" }, "No alerts yet. Send a test alert to see one here."),
          );
        else
          fill(
            list,
            h(
              "ol",
              { class: "plain alerts-history" },
              answer.items.map((item) => row(item, replay)),
            ),
          );
      })
      .catch((error) => {
        shown = null;
        showError(list, error, refresh);
      });
  };
  const element = h(
    "section",
    { class: "card", "aria-labelledby": headingId },
    h("h2", { id: headingId }, "History"),
    h("p", { class: "muted" }, "The last alerts, newest first. Replay shows one again on your overlays."),
    list,
    status,
  );
  refresh();
  every(element, 4000, refresh);
  return { element, refresh };
}
