// Alerts (issue 25): follows, subs, gifts, cheers, raids and redemptions on the OBS overlay. The
// switch and its state, the overlay links with a live preview, each type's settings with a test
// button, the history with replay, and in demo mode buttons that make the simulated Twitch send each
// event. Each section is its own module under alerts/.
import { getData } from "../lib/api.ts";
import { demoProgramCard } from "../lib/demo-program.ts";
import { fill, h, uid } from "../lib/dom.ts";
import { newestWins, type Poll, Sequence } from "../lib/poll.ts";
import { load } from "../lib/states.ts";
import { pollSwitch } from "../lib/switch-card.ts";
import type { App, View } from "../view.ts";
import { AssetStore } from "./alerts/assets.ts";
import { demoCard } from "./alerts/demo.ts";
import { filesCard } from "./alerts/files.ts";
import { historySection } from "./alerts/history.ts";
import { linksCard, previewCard } from "./alerts/links.ts";
import { switchCard } from "./alerts/switch.ts";
import { typeSection } from "./alerts/type-form.ts";
import type { AlertsInfo, AssetList } from "./alerts/types.ts";

function typesCard(info: AlertsInfo, assets: AssetStore, tested: () => void): HTMLElement {
  const headingId = uid("alerts-types");
  return h(
    "section",
    { class: "card", "aria-labelledby": headingId },
    h("h2", { id: headingId }, "Each alert"),
    h(
      "p",
      { class: "muted" },
      "Open a type to change its text, image, sound and chat thanks, or to send a test alert.",
    ),
    h(
      "div",
      { class: "alerts-types" },
      info.types.map((t) => typeSection({ info: t, assets, tested })),
    ),
  );
}

/** The switch's poll: every 2 s while it is connecting, else every 15 s. */
function switchInterval(state: AlertsInfo["state"]): number {
  return state === "connecting" ? 2000 : 15_000;
}

/** Keeps the switch card current: the state moves by itself (connecting → connected). */
function liveSwitch(root: HTMLElement, info: AlertsInfo): HTMLElement {
  const sequence = new Sequence();
  let state = info.state;
  let poll: Poll | null = null;
  const card = switchCard(info, sequence, (next) => {
    if (next.state === state) return;
    state = next.state;
    poll?.reschedule();
  });
  const load = newestWins(() => getData<AlertsInfo>("/api/dashboard/alerts"), sequence);
  poll = pollSwitch(root, card, () => switchInterval(state), load);
  return card.element;
}

function render(root: HTMLElement, info: AlertsInfo, assets: AssetList, demo: boolean): void {
  const store = new AssetStore(assets.items, assets.limit);
  const history = historySection();
  // A simulated event reaches the history a moment after the button answers.
  const refresh = () => void history.refresh().catch(() => {});
  const soon = () => {
    refresh();
    window.setTimeout(refresh, 800);
  };
  fill(
    root,
    h(
      "p",
      { class: "lead" },
      "Show follows, subs, cheers, raids and channel-point redemptions on your stream as they happen.",
    ),
    liveSwitch(root, info),
    h("div", { class: "split alerts-split" }, linksCard(info), previewCard(info)),
    demo ? h("div", { class: "split alerts-split" }, demoCard(soon), demoProgramCard(root)) : null,
    typesCard(info, store, refresh),
    filesCard(store),
    history.element,
  );
}

export const alertsView: View = {
  id: "alerts",
  title: "Alerts",
  render(root, app: App) {
    void load(
      root,
      () =>
        Promise.all([
          getData<AlertsInfo>("/api/dashboard/alerts"),
          getData<AssetList>("/api/dashboard/alerts/assets"),
          app.profile(),
        ]),
      ([info, assets, profile]) => render(root, info, assets, profile.demo),
    );
  },
};
