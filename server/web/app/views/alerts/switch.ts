// The alerts switch (lib/switch-card.ts): on/off, the connection state (with its reason and since
// when), the button to Twitch's consent page while a scope is missing, and each alert type's own state
// while it is not connected (a type whose permission was withdrawn stops alone).
import { STATE_TEXT } from "../../lib/connection-states.ts";
import { h } from "../../lib/dom.ts";
import type { Sequence } from "../../lib/poll.ts";
import { consentLine, switchCard as featureSwitch, type SwitchCard } from "../../lib/switch-card.ts";
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

/**
 * The switch's card. The PUT takes a ticket of `sequence`, so a poll asked before it never undoes it;
 * `drawn` hears every state shown (a poll's or the PUT's).
 */
export function switchCard(
  info: AlertsInfo,
  sequence: Sequence,
  drawn: (info: AlertsInfo) => void = () => {},
): SwitchCard<AlertsInfo> {
  return featureSwitch(info, {
    prefix: "alerts",
    path: "/api/dashboard/alerts",
    heading: "Alerts on my overlay",
    intro:
      "Follows, subs, gifted subs, cheers, raids and channel-point redemptions show on your OBS overlay as they happen, one at a time, with your text, image and sound.",
    label: "On: show alerts on my overlay",
    what: "Alerts",
    more: (next) => [
      next.consentUrl
        ? consentLine(
            next.consentUrl,
            "alerts-consent",
            "Allow cuebot to receive alerts",
            "Twitch asks you to confirm; cuebot then also holds bits:read (cheers) and channel:read:redemptions (channel points). Nothing else changes.",
          )
        : null,
      typeStates(next),
    ],
    moreKey: (next) =>
      JSON.stringify([next.enabled, next.consentUrl, next.state, next.types.map((t) => [t.state, t.reason])]),
    sequence,
    drawn,
  });
}
