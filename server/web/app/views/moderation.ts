// Moderation (issue 35): cuebot's spam filters on the channel's chat. The switch and its state, "try a
// line", the raid shield, each filter on its own card (saved alone), and the log with undo. Each
// section is its own module under moderation/.
import { getData } from "../lib/api.ts";
import { fill, h, uid } from "../lib/dom.ts";
import { newestWins, type Poll, Sequence } from "../lib/poll.ts";
import { load } from "../lib/states.ts";
import { pollSwitch } from "../lib/switch-card.ts";
import type { ModerationInfo } from "../lib/types.ts";
import type { View } from "../view.ts";
import { filterCard } from "./moderation/filter-card.ts";
import { logSection } from "./moderation/log.ts";
import { MODERATION_FILTERS } from "./moderation/model.ts";
import { type ShieldCard, shieldCard } from "./moderation/shield.ts";
import { switchCard } from "./moderation/switch.ts";
import { tryLineCard } from "./moderation/try-line.ts";

const PATH = "/api/dashboard/moderation";

/** The poll: every 2 s while connecting, 5 s while the shield is up (it lifts by itself), else 15 s. */
function pollInterval(info: ModerationInfo): number {
  if (info.state === "connecting") return 2000;
  return info.shield.active ? 5000 : 15_000;
}

/** The switch, kept current with the shield's state: both move by themselves. */
function liveState(root: HTMLElement, info: ModerationInfo, shield: ShieldCard): HTMLElement {
  const sequence = new Sequence();
  let shown = info;
  let poll: Poll | null = null;
  const card = switchCard(info, sequence, (next) => {
    const interval = pollInterval(shown);
    shown = next;
    shield.update(next.shield);
    if (pollInterval(next) !== interval) poll?.reschedule();
  });
  const ask = newestWins(() => getData<ModerationInfo>(PATH), sequence);
  poll = pollSwitch(root, card, () => pollInterval(shown), ask);
  return card.element;
}

function filtersSection(info: ModerationInfo): HTMLElement {
  const headingId = uid("moderation-filters");
  return h(
    "section",
    { class: "moderation-filters", "aria-labelledby": headingId },
    h("h2", { id: headingId, class: "moderation-filters-head" }, "Filters"),
    h(
      "p",
      { class: "muted" },
      "Each filter is saved on its own. A chatter at or above a filter's level is never caught by it.",
    ),
    h(
      "div",
      { class: "cards" },
      MODERATION_FILTERS.map((filter) => filterCard(filter, info.filters[filter])),
    ),
  );
}

function render(root: HTMLElement, info: ModerationInfo): void {
  const shield = shieldCard(info);
  fill(
    root,
    h(
      "p",
      { class: "lead" },
      "Keep spam out of your chat: links, shouting, symbol and emote walls, repeats, long messages and the words you block.",
    ),
    liveState(root, info, shield),
    h("div", { class: "split moderation-split" }, tryLineCard(), shield.element),
    filtersSection(info),
    logSection().element,
  );
}

export const moderationView: View = {
  id: "moderation",
  title: "Moderation",
  render(root) {
    void load(
      root,
      () => getData<ModerationInfo>(PATH),
      (info) => render(root, info),
    );
  },
};
