// Demo mode only: the simulated Twitch sends a real event of each type to the demo channel, which
// takes the whole path a real one does (EventSub, settings, history, overlays, chat line).
import { errorMessage, sendData } from "../../lib/api.ts";
import { fill, h, uid } from "../../lib/dom.ts";
import { announce } from "../../lib/states.ts";
import { ALERT_TYPES, type AlertType, TYPE_FACTS } from "./types.ts";

/** The buttons; `emitted` runs after Twitch (simulated) sent the event. */
export function demoCard(emitted: () => void): HTMLElement {
  const headingId = uid("alerts-demo");
  const status = h("p", { class: "save-status", role: "status" });
  const simulate = async (type: AlertType, button: HTMLButtonElement) => {
    button.disabled = true;
    fill(status);
    try {
      await sendData("POST", "/api/dashboard/alerts/simulate", { type });
      const done = `${TYPE_FACTS[type].label}: the simulated Twitch sent the event.`;
      fill(status, h("span", { class: "ok-text" }, done));
      announce(done);
      emitted();
    } catch (error) {
      fill(status, h("span", { class: "error-text" }, errorMessage(error)));
    } finally {
      button.disabled = false;
    }
  };
  const buttons = ALERT_TYPES.map((type) => {
    const button = h(
      "button",
      { type: "button", class: "secondary small", id: `alerts-simulate-${type}` },
      TYPE_FACTS[type].simulate,
    );
    button.addEventListener("click", () => void simulate(type, button));
    return button;
  });
  return h(
    "section",
    { class: "card", "aria-labelledby": headingId, id: "alerts-demo" },
    h("h2", { id: headingId }, "Try it: simulated events"),
    h(
      "p",
      { class: "muted" },
      "Demo mode: your simulated channel receives a real EventSub event, as from Twitch. With alerts on, it shows in the preview and the history.",
    ),
    h("div", { class: "row" }, buttons),
    status,
  );
}
