// OBS (issue 37; CONTRACT §6 "Actions"): the connection to OBS Studio over obs-websocket that actions
// drive: its settings (the password never shown back), its state with the reason in plain words, and
// OBS's own scenes and sources, kept current while the view is open. In demo mode, the simulated OBS's
// program beside it.
import { getData } from "../lib/api.ts";
import { demoProgramCard } from "../lib/demo-program.ts";
import { fill, h, uid } from "../lib/dom.ts";
import { dateTime } from "../lib/format.ts";
import { OBS_STATE_TEXT, obsBadgeClass } from "../lib/obs-states.ts";
import { every, newestWins, Sequence } from "../lib/poll.ts";
import { load } from "../lib/states.ts";
import type { ObsInfo } from "../lib/types.ts";
import type { App, View } from "../view.ts";
import { OBS_PASSWORD_PATH, OBS_PATH, settingsCard } from "./obs/settings.ts";

/** Every 2 s while connecting, else every 5 s. */
const intervalFor = (info: ObsInfo) => (info.state === "connecting" ? 2000 : 5000);

interface Part {
  element: HTMLElement;
  update(info: ObsInfo): void;
}

function stateCard(): Part {
  const headingId = uid("obs-state");
  const badge = h("span", { class: "badge", id: "obs-state" });
  const since = h("span", {});
  const reason = h("p", { class: "notice", id: "obs-reason", hidden: true });
  const version = h("p", { id: "obs-version", hidden: true });
  const element = h(
    "section",
    { class: "card", id: "obs-status", "aria-labelledby": headingId },
    h("h2", { id: headingId }, "Connection"),
    h("p", {}, "State: ", badge, since),
    reason,
    version,
  );
  const update = (info: ObsInfo) => {
    badge.className = obsBadgeClass(info.state);
    badge.textContent = OBS_STATE_TEXT[info.state];
    since.textContent = info.since && info.state !== "off" ? ` since ${dateTime(info.since)}` : "";
    reason.textContent = info.reason ?? "";
    reason.hidden = !info.reason;
    version.textContent = info.obsVersion ? `OBS Studio ${info.obsVersion}` : "";
    version.hidden = !info.obsVersion;
  };
  return { element, update };
}

function nameList(id: string, title: string, names: string[]): HTMLElement {
  const headingId = uid(id);
  return h(
    "div",
    { class: "obs-names", id },
    h("h3", { id: headingId }, `${title} (${names.length})`),
    h(
      "ul",
      { class: "obs-name-list", "aria-labelledby": headingId },
      names.map((name) => h("li", {}, name)),
    ),
  );
}

function namesCard(): Part {
  const headingId = uid("obs-seen");
  const box = h("div", {});
  const element = h(
    "section",
    { class: "card", id: "obs-seen", "aria-labelledby": headingId },
    h("h2", { id: headingId }, "What OBS has"),
    h("p", { class: "muted" }, "The names the Actions editor offers, as OBS lists them now."),
    box,
  );
  const update = (info: ObsInfo) => {
    const key = JSON.stringify([info.state, info.scenes, info.sources]);
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    if (info.state !== "connected") {
      fill(box, h("p", { class: "muted" }, "OBS's scenes and sources show here while it is connected."));
      return;
    }
    fill(
      box,
      h(
        "div",
        { class: "obs-names-split" },
        nameList("obs-scenes", "Scenes", info.scenes),
        nameList("obs-sources", "Sources", info.sources),
      ),
    );
  };
  return { element, update };
}

function render(root: HTMLElement, info: ObsInfo, passwordSet: boolean, demo: boolean): void {
  const sequence = new Sequence();
  let shown = info;
  const parts = [stateCard(), namesCard()];
  const drawn = (next: ObsInfo) => {
    const interval = intervalFor(shown);
    shown = next;
    for (const part of parts) part.update(next);
    if (intervalFor(next) !== interval) poll.reschedule();
  };
  const settings = settingsCard(info, passwordSet, sequence, drawn);
  fill(
    root,
    h(
      "p",
      { class: "lead" },
      "Connect cuebot to OBS Studio, so your actions can switch scenes, show sources and set texts when something happens on stream.",
    ),
    h(
      "div",
      { class: "split obs-split" },
      settings,
      h("div", { class: "stack" }, parts[0]!.element, demo ? demoProgramCard(root) : null),
    ),
    parts[1]!.element,
  );
  for (const part of parts) part.update(info);
  const ask = newestWins(() => getData<ObsInfo>(OBS_PATH), sequence);
  const poll = every(
    root,
    () => intervalFor(shown),
    async () => {
      const next = await ask();
      if (next) drawn(next);
    },
  );
}

export const obsView: View = {
  id: "obs",
  title: "OBS",
  render(root: HTMLElement, app: App) {
    void load(
      root,
      () =>
        Promise.all([
          getData<ObsInfo>(OBS_PATH),
          getData<{ set: boolean }>(OBS_PASSWORD_PATH),
          app.profile(),
        ]),
      ([info, password, profile]) => render(root, info, password.set, profile.demo),
    );
  },
};
