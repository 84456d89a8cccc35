// A live feature's switch card (alerts, chat moderation): on/off, the connection state with since when,
// the reason while it is not connected, and the feature's own lines under it (its consent button, …).
// The PUT takes a ticket of a Sequence, so a poll asked before it never undoes it.
import type { ConnectionState } from "../../../vocabulary.ts";
import { errorMessage, sendData } from "./api.ts";
import { STATE_TEXT } from "./connection-states.ts";
import { type Attrs, fill, h, uid } from "./dom.ts";
import { dateTime } from "./format.ts";
import { every, type Poll, type Sequence } from "./poll.ts";
import { announce } from "./states.ts";

/** What every switched feature's GET answers. */
export interface SwitchInfo {
  enabled: boolean;
  state: ConnectionState;
  since: string | null;
  reason: string | null;
  consentUrl: string | null;
}

export interface SwitchOptions<T extends SwitchInfo> {
  /** The ids' start: `<prefix>-switch` (the card), `-enabled`, `-state`, `-reason`. */
  prefix: string;
  /** Where `{enabled}` is PUT; it answers the feature's info. */
  path: string;
  heading: string;
  intro: string;
  /** The toggle's label. */
  label: string;
  /** What is announced as turned on or off ("Alerts"). */
  what: string;
  /** The feature's lines under the reason, and what they show as a key (drawn again when it changes). */
  more(info: T): (HTMLElement | null)[];
  moreKey(info: T): string;
  sequence: Sequence;
  /** Hears every state shown (a poll's or the PUT's). */
  drawn?: (info: T) => void;
}

export interface SwitchCard<T> {
  element: HTMLElement;
  /** Shows `info` in place: the toggle keeps the keyboard focus (and a change still being sent). */
  update(info: T): void;
  /** Says whether the last refresh failed (a quiet line; what is shown stays). */
  stale(failed: boolean): void;
}

function sinceText(info: SwitchInfo): string {
  return info.since && info.state !== "off" ? ` since ${dateTime(info.since)}` : "";
}

/** The toggle: PUTs `{enabled}`, puts it back and says why when refused. */
function toggleFor<T extends SwitchInfo>(
  options: SwitchOptions<T>,
  checked: boolean,
  status: HTMLElement,
  update: (info: T) => void,
): HTMLInputElement {
  const toggle = h("input", { type: "checkbox", id: `${options.prefix}-enabled`, checked });
  toggle.addEventListener("change", async () => {
    const hadFocus = document.activeElement === toggle;
    const ticket = options.sequence.ask();
    toggle.disabled = true;
    fill(status);
    try {
      const next = await sendData<T>("PUT", options.path, { enabled: toggle.checked });
      announce(`${options.what} turned ${toggle.checked ? "on" : "off"}.`);
      toggle.disabled = false;
      if (options.sequence.accept(ticket)) update(next);
    } catch (error) {
      toggle.checked = !toggle.checked;
      fill(status, h("span", { class: "error-text" }, errorMessage(error)));
    } finally {
      toggle.disabled = false;
      // Disabling dropped the keyboard focus; it goes back where it was.
      if (hadFocus) toggle.focus();
    }
  });
  return toggle;
}

export function switchCard<T extends SwitchInfo>(info: T, options: SwitchOptions<T>): SwitchCard<T> {
  const { prefix } = options;
  const headingId = uid(`${prefix}-switch`);
  const status = h("p", { role: "status", class: "save-status" });
  const staleLine = h("p", { class: "muted alerts-stale", hidden: true }, "Couldn't refresh; trying again.");
  const badge = h("span", { class: "badge", id: `${prefix}-state` });
  const since = h("span", {});
  const extra = h("div", {});
  const update = (next: T) => {
    if (!toggle.disabled) toggle.checked = next.enabled;
    badge.className = `badge chat-${next.state}`;
    badge.textContent = STATE_TEXT[next.state];
    since.textContent = sinceText(next);
    options.drawn?.(next);
    const key = JSON.stringify([next.reason, options.moreKey(next)]);
    if (extra.dataset.key === key) return;
    extra.dataset.key = key;
    const reason: Attrs = { class: "notice", id: `${prefix}-reason` };
    fill(extra, next.reason ? h("p", reason, next.reason) : null, ...options.more(next));
  };
  const toggle = toggleFor(options, info.enabled, status, update);
  update(info);
  const element = h(
    "section",
    { class: "card", "aria-labelledby": headingId, id: `${prefix}-switch` },
    h("h2", { id: headingId }, options.heading),
    h("p", {}, options.intro),
    h("label", { class: "check switch" }, toggle, ` ${options.label}`),
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

/** A feature's consent button, with what Twitch will ask for. */
export function consentLine(url: string, id: string, label: string, note: string): HTMLElement {
  return h(
    "p",
    {},
    h("a", { class: "button", href: url, id }, label),
    h("span", { class: "muted" }, ` ${note}`),
  );
}

/**
 * Keeps a switch card current while its view is open: `load` every `interval()` ms (asked again each
 * time), the card updated with each answer and marked stale while loading fails.
 */
export function pollSwitch<T extends SwitchInfo>(
  root: HTMLElement,
  card: SwitchCard<T>,
  interval: () => number,
  load: () => Promise<T | null>,
): Poll {
  return every(root, interval, async () => {
    try {
      const next = await load();
      card.stale(false);
      if (next) card.update(next);
    } catch (error) {
      card.stale(true);
      throw error;
    }
  });
}
