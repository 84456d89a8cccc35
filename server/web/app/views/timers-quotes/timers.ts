// The Timers section: when timers post (live only, after enough chat, one at a time, native chat on),
// a warning while native chat is off, the list of timers, and the form to add one.
import { getData, sendData } from "../../lib/api.ts";
import { fill, h, uid } from "../../lib/dom.ts";
import { plural } from "../../lib/format.ts";
import { load } from "../../lib/states.ts";
import type { ChatInfo } from "../../lib/types.ts";
import { timerForm } from "./timer-form.ts";
import { timerRow } from "./timer-row.ts";
import type { Timer, TimerList } from "./types.ts";

const EMPTY_TEXT = "No timers yet. Add one below: for example your socials, every 15 minutes.";

function rules(): HTMLElement {
  return h(
    "p",
    { class: "tq-rules" },
    "cuebot posts each timer's message every so many minutes, but only while your stream is live, only once at least its number of chat lines came since its last post (so it never talks to an empty chat), never two timers at once (they are spread out, at the pace of the bot's replies), and only while cuebot answers in your chat (",
    h("a", { href: "#/chat" }, "native chat"),
    ").",
  );
}

/** A warning when native chat is off, since then no timer posts; nothing when it cannot be known. */
function chatWarning(): HTMLElement {
  const box = h("div", { id: "timers-chat-state" });
  getData<ChatInfo>("/api/dashboard/chat")
    .then((chat) => {
      if (!chat.enabled)
        fill(
          box,
          h(
            "p",
            { class: "notice warn" },
            "Native chat is off, so no timer posts now. Turn it on under ",
            h("a", { href: "#/chat" }, "Chat"),
            ".",
          ),
        );
    })
    .catch(() => {});
  return box;
}

/** The list, kept in step with adds and deletes without reloading it. */
function timerList(data: TimerList, box: HTMLElement, count: HTMLElement, heading: HTMLElement) {
  const list = h("ul", { class: "tq-list", id: "timer-list" });
  let shown = data.items.length;
  const counted = () => {
    count.textContent = `${plural(shown, "timer")} of at most ${data.limit}`;
    if (shown === 0) fill(box, h("p", { class: "state state-empty" }, EMPTY_TEXT));
  };
  const deleted = (row: HTMLElement) => {
    const next = (row.nextElementSibling ?? row.previousElementSibling) as HTMLElement | null;
    row.remove();
    shown -= 1;
    counted();
    (next?.querySelector<HTMLElement>("button") ?? heading).focus();
  };
  const add = (timer: Timer) => {
    if (!list.isConnected) fill(box, list);
    list.append(timerRow(timer, { deleted }));
    shown += 1;
    counted();
  };
  for (const timer of data.items) list.append(timerRow(timer, { deleted }));
  fill(box, list);
  counted();
  return { add };
}

export function timersSection(): HTMLElement {
  const headingId = uid("timers");
  const heading = h("h2", { id: headingId, tabindex: -1 }, "Timers");
  const count = h("p", { class: "muted tq-count", id: "timer-count" });
  const box = h("div", { class: "tq-box", id: "timers" });
  let added: ((timer: Timer) => void) | null = null;
  // Added before the list arrived: shown once it does, unless the list already holds them.
  const early: Timer[] = [];
  const form = timerForm({
    label: "Add a timer",
    save: async (values) => {
      const timer = await sendData<Timer>("POST", "/api/dashboard/timers", values);
      if (added) added(timer);
      else early.push(timer);
      return `Timer ${timer.name} added.`;
    },
  });
  void load(
    box,
    () => getData<TimerList>("/api/dashboard/timers"),
    (data) => {
      const add = timerList(data, box, count, heading).add;
      for (const timer of early) if (!data.items.some((t) => t.id === timer.id)) add(timer);
      added = add;
    },
  );
  return h(
    "section",
    { class: "card tq-section", "aria-labelledby": headingId },
    heading,
    rules(),
    chatWarning(),
    count,
    box,
    h("h3", { class: "tq-add" }, "Add a timer"),
    form,
  );
}
