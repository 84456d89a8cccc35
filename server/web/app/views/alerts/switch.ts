// The alerts switch: on/off, the connection state (with its reason and since when), the button to
// Twitch's consent page while a scope is missing, and each alert type's own state while it is not
// connected (a type whose permission was withdrawn stops alone).
import { errorMessage, sendData } from "../../lib/api.ts";
import { STATE_TEXT } from "../../lib/connection-states.ts";
import { fill, h, uid } from "../../lib/dom.ts";
import { dateTime } from "../../lib/format.ts";
import type { Sequence } from "../../lib/poll.ts";
import { announce } from "../../lib/states.ts";
import { type AlertsInfo, TYPE_FACTS } from "./types.ts";

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

export interface SwitchCard {
  element: HTMLElement;
  /** Shows `info` in place: the toggle keeps the keyboard focus (and a change still being sent). */
  update(info: AlertsInfo): void;
  /** Says whether the last refresh failed (a quiet line; what is shown stays). */
  stale(failed: boolean): void;
}

function sinceText(info: AlertsInfo): string {
  return info.since && info.state !== "off" ? ` since ${dateTime(info.since)}` : "";
}

/**
 * The switch's card. The PUT takes a ticket of `sequence`, so a poll asked before it never undoes it;
 * `drawn` hears every state shown (a poll's or the PUT's).
 */
export function switchCard(
  info: AlertsInfo,
  sequence: Sequence,
  drawn: (info: AlertsInfo) => void = () => {},
): SwitchCard {
  const headingId = uid("alerts-switch");
  const toggle = h("input", { type: "checkbox", id: "alerts-enabled", checked: info.enabled });
  const status = h("p", { role: "status", class: "save-status" });
  const staleLine = h("p", { class: "muted alerts-stale", hidden: true }, "Couldn't refresh; trying again.");
  const badge = h("span", { class: "badge", id: "alerts-state" });
  const since = h("span", {});
  const extra = h("div", {});
  const update = (next: AlertsInfo) => {
    if (!toggle.disabled) toggle.checked = next.enabled;
    badge.className = `badge chat-${next.state}`;
    badge.textContent = STATE_TEXT[next.state];
    since.textContent = sinceText(next);
    drawn(next);
    const key = switchKey(next);
    if (extra.dataset.key === key) return;
    extra.dataset.key = key;
    fill(
      extra,
      next.reason ? h("p", { class: "notice", id: "alerts-reason" }, next.reason) : null,
      next.consentUrl ? consentLine(next.consentUrl) : null,
      typeStates(next),
    );
  };
  toggle.addEventListener("change", async () => {
    const hadFocus = document.activeElement === toggle;
    const ticket = sequence.ask();
    toggle.disabled = true;
    fill(status);
    try {
      const next = await sendData<AlertsInfo>("PUT", "/api/dashboard/alerts", { enabled: toggle.checked });
      announce(toggle.checked ? "Alerts turned on." : "Alerts turned off.");
      toggle.disabled = false;
      if (sequence.accept(ticket)) update(next);
    } catch (error) {
      toggle.checked = !toggle.checked;
      fill(status, h("span", { class: "error-text" }, errorMessage(error)));
    } finally {
      toggle.disabled = false;
      // Disabling dropped the keyboard focus; it goes back where it was.
      if (hadFocus) toggle.focus();
    }
  });
  update(info);
  const element = h(
    "section",
    { class: "card", "aria-labelledby": headingId, id: "alerts-switch" },
    h("h2", { id: headingId }, "Alerts on my overlay"),
    h(
      "p",
      {},
      "Follows, subs, gifted subs, cheers, raids and channel-point redemptions show on your OBS overlay as they happen, one at a time, with your text, image and sound.",
    ),
    h("label", { class: "check switch" }, toggle, " On: show alerts on my overlay"),
    h("p", {}, "State: ", badge, since),
    extra,
    status,
    staleLine,
  );
  return {
    element,
    update,
    stale: (failed) => {
      staleLine.hidden = !failed;
    },
  };
}

/** What the reason, consent and per-type lines show, as a key: they are drawn again only when it changes. */
function switchKey(info: AlertsInfo): string {
  return JSON.stringify([
    info.enabled,
    info.reason,
    info.consentUrl,
    info.state,
    info.types.map((t) => [t.state, t.reason]),
  ]);
}
