// The alerts switch: on/off, the connection state (with its reason and since when), the button to
// Twitch's consent page while a scope is missing, and each alert type's own state while it is not
// connected (a type whose permission was withdrawn stops alone).
import { errorMessage, sendData } from "../../lib/api.ts";
import { fill, h, uid } from "../../lib/dom.ts";
import { dateTime } from "../../lib/format.ts";
import { announce } from "../../lib/states.ts";
import { type AlertsInfo, STATE_TEXT, TYPE_FACTS } from "./types.ts";

/** The types that do not work while alerts are on, each with its state and reason. */
function typeStates(info: AlertsInfo): HTMLElement | null {
  if (!info.enabled) return null;
  const stuck = info.types.filter((t) => t.state !== "connected" && t.state !== info.state);
  if (stuck.length === 0) return null;
  return h(
    "ul",
    { class: "plain alerts-type-states", id: "alerts-type-states" },
    stuck.map((t) =>
      h(
        "li",
        { class: "alerts-type-state" },
        h("strong", {}, TYPE_FACTS[t.type].label),
        ": ",
        h("span", { class: `badge chat-${t.state}` }, STATE_TEXT[t.state]),
        t.reason ? ` ${t.reason}` : "",
      ),
    ),
  );
}

function consentLine(url: string): HTMLElement {
  return h(
    "p",
    {},
    h("a", { class: "button", href: url, id: "alerts-consent" }, "Allow cuebot to receive alerts"),
    h(
      "span",
      { class: "muted" },
      " Twitch asks you to confirm; cuebot then also holds bits:read (cheers) and channel:read:redemptions (channel points). Nothing else changes.",
    ),
  );
}

/** The switch's card; `onChange` gets the API's answer after a switch. */
export function switchCard(info: AlertsInfo, onChange: (info: AlertsInfo) => void): HTMLElement {
  const headingId = uid("alerts-switch");
  const toggle = h("input", { type: "checkbox", id: "alerts-enabled", checked: info.enabled });
  const status = h("p", { role: "status", class: "save-status" });
  toggle.addEventListener("change", async () => {
    toggle.disabled = true;
    try {
      const next = await sendData<AlertsInfo>("PUT", "/api/dashboard/alerts", { enabled: toggle.checked });
      announce(toggle.checked ? "Alerts turned on." : "Alerts turned off.");
      onChange(next);
    } catch (error) {
      toggle.checked = !toggle.checked;
      fill(status, h("span", { class: "error-text" }, errorMessage(error)));
    } finally {
      toggle.disabled = false;
    }
  });
  const since = info.since && info.state !== "off" ? ` since ${dateTime(info.since)}` : "";
  return h(
    "section",
    { class: "card", "aria-labelledby": headingId, id: "alerts-switch" },
    h("h2", { id: headingId }, "Alerts on my overlay"),
    h(
      "p",
      {},
      "Follows, subs, gifted subs, cheers, raids and channel-point redemptions show on your OBS overlay as they happen, one at a time, with your text, image and sound.",
    ),
    h("label", { class: "check switch" }, toggle, " On: show alerts on my overlay"),
    h(
      "p",
      {},
      "State: ",
      h("span", { class: `badge chat-${info.state}`, id: "alerts-state" }, STATE_TEXT[info.state]),
      since,
    ),
    info.reason ? h("p", { class: "notice", id: "alerts-reason" }, info.reason) : null,
    info.consentUrl ? consentLine(info.consentUrl) : null,
    typeStates(info),
    status,
  );
}

/** What the switch card shows, as a key: it is drawn again only when this changes. */
export function switchKey(info: AlertsInfo): string {
  return JSON.stringify([
    info.enabled,
    info.state,
    info.since,
    info.reason,
    info.consentUrl,
    info.types.map((t) => [t.state, t.reason]),
  ]);
}
