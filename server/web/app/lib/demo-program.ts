// Demo mode only: the simulated OBS as a visitor would see its window, the scene on program and its
// sources (shown or hidden, a text source's text), kept current while the view is open, so a raid or
// a button switching the scene shows here. Used by the OBS, Deck and Alerts views.
import { getData } from "./api.ts";
import { fill, h, uid } from "./dom.ts";
import { every } from "./poll.ts";
import type { DemoProgram } from "./types.ts";

const PATH = "/api/dashboard/demo/obs";

function sourceItem(source: DemoProgram["sources"][number]): HTMLElement {
  return h(
    "li",
    { class: source.visible ? "program-source" : "program-source program-hidden" },
    h("span", { class: "program-source-name" }, source.name),
    h("span", { class: "badge" }, source.visible ? "shown" : "hidden"),
    source.text !== null && source.text !== ""
      ? h("span", { class: "program-text" }, `“${source.text}”`)
      : null,
  );
}

/** Draws `program` into the card's box; unchanged answers draw nothing (no flicker, focus kept). */
function draw(box: HTMLElement, program: DemoProgram): void {
  const key = JSON.stringify(program);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  fill(
    box,
    h(
      "p",
      { class: "program-scene" },
      "On program: ",
      h("strong", { id: "demo-program-scene" }, program.scene),
    ),
    program.sources.length === 0
      ? h("p", { class: "muted" }, "This scene has no sources.")
      : h(
          "ul",
          { class: "program-sources", "aria-label": `Sources of ${program.scene}` },
          program.sources.map(sourceItem),
        ),
  );
}

/** The card; `root` is the view, whose leaving stops the refresh (once a second). */
export function demoProgramCard(root: HTMLElement): HTMLElement {
  const headingId = uid("demo-program");
  const box = h(
    "div",
    { class: "program-box", "aria-live": "polite" },
    h("p", { class: "muted" }, "Loading…"),
  );
  const stale = h("p", { class: "muted", hidden: true }, "Couldn't refresh; trying again.");
  const refresh = async () => {
    try {
      draw(box, await getData<DemoProgram>(PATH));
      stale.hidden = true;
    } catch (error) {
      stale.hidden = false;
      throw error;
    }
  };
  void refresh().catch(() => undefined);
  every(root, () => 1000, refresh);
  return h(
    "section",
    { class: "card demo-program", id: "demo-program", "aria-labelledby": headingId },
    h("h2", { id: headingId }, "Your OBS (simulated)"),
    h(
      "p",
      { class: "muted" },
      "Demo mode: the simulated OBS your account is connected to, as its window shows it now. Run an action, or with alerts on send a simulated raid: the demo's “Raid welcome” action switches the scene.",
    ),
    box,
    stale,
  );
}
