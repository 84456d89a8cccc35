// Chat: cuebot answering commands in the channel's chat by itself (native chat). Its switch and
// connection state, the re-consent it may need, the triggers each command answers to (editable
// aliases), how it sits beside another bot, and in demo mode a simulated chat to try it in.
import { errorMessage, getData, sendData } from "../lib/api.ts";
import { STATE_TEXT } from "../lib/connection-states.ts";
import { confirmDialog } from "../lib/dialog.ts";
import { fill, h, uid } from "../lib/dom.ts";
import { dateTime, NO_REPLY_TEXT, shownText, time } from "../lib/format.ts";
import { announce, load } from "../lib/states.ts";
import type { ChatInfo, CommandInfo, DemoChatInfo } from "../lib/types.ts";
import type { App, View } from "../view.ts";

/** Polls while the view is open, and stops by itself once the view is gone. */
function every(root: HTMLElement, ms: number, fn: () => void): void {
  const timer = window.setInterval(() => {
    if (!root.isConnected) window.clearInterval(timer);
    else fn();
  }, ms);
}

function stateCard(info: ChatInfo, onChange: (info: ChatInfo) => void): HTMLElement {
  const headingId = uid("chat-state");
  const toggle = h("input", { type: "checkbox", id: "chat-enabled", checked: info.enabled });
  const status = h("p", { role: "status", class: "save-status" });
  toggle.addEventListener("change", async () => {
    toggle.disabled = true;
    try {
      const next = await sendData<ChatInfo>("PUT", "/api/dashboard/chat", { enabled: toggle.checked });
      announce(toggle.checked ? "Native chat turned on." : "Native chat turned off.");
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
    { class: "card", "aria-labelledby": headingId },
    h("h2", { id: headingId }, "Answer commands in my chat"),
    h(
      "p",
      {},
      "cuebot reads your channel's chat and answers ",
      h("code", {}, "!commands"),
      " itself, as a reply to the message — no other bot needed. The same settings, cooldowns and limits apply as for chat-bot calls.",
    ),
    h("label", { class: "check switch" }, toggle, " On: cuebot answers in my chat"),
    h(
      "p",
      { id: "chat-state-line" },
      "State: ",
      h("span", { class: `badge chat-${info.state}`, id: "chat-state" }, STATE_TEXT[info.state]),
      since,
    ),
    info.reason ? h("p", { class: "notice", id: "chat-reason" }, info.reason) : null,
    info.consentUrl
      ? h(
          "p",
          {},
          h("a", { class: "button", href: info.consentUrl, id: "chat-consent" }, "Allow cuebot to read chat"),
          h(
            "span",
            { class: "muted" },
            ` Twitch asks you to confirm; cuebot then also holds ${info.scope}. Nothing else changes.`,
          ),
        )
      : null,
    status,
  );
}

function speakerCard(info: ChatInfo, onChange: (info: ChatInfo) => void): HTMLElement {
  const headingId = uid("speaker");
  const status = h("p", { role: "status", class: "save-status" });
  const unlink = async () => {
    const ok = await confirmDialog({
      title: "Unlink the bot account?",
      message: `cuebot will speak as you again, and ${info.bot?.displayName ?? "the bot"}'s permission is withdrawn at Twitch.`,
      confirmLabel: "Unlink",
    });
    if (!ok) return;
    try {
      onChange(await sendData<ChatInfo>("DELETE", "/api/dashboard/chat/bot"));
      announce("The bot account was unlinked.");
    } catch (error) {
      fill(status, h("span", { class: "error-text" }, errorMessage(error)));
    }
  };
  const bot = info.bot;
  const standing = bot
    ? bot.moderator
      ? "moderator"
      : bot.vip
        ? "VIP"
        : bot.moderator === false
          ? "not a moderator"
          : "standing unknown"
    : "";
  return h(
    "section",
    { class: "card", "aria-labelledby": headingId },
    h("h2", { id: headingId }, "Who speaks"),
    bot
      ? h(
          "div",
          {},
          h(
            "p",
            { id: "chat-speaker" },
            "Your bot account ",
            h("strong", {}, bot.displayName),
            " reads and answers (",
            standing,
            ").",
          ),
          h("p", { class: bot.moderator || bot.vip ? "muted" : "notice", id: "chat-bot-note" }, bot.note),
          bot.needsReauth
            ? h("p", {}, h("a", { class: "button", href: info.botLinkUrl }, "Link the bot account again"))
            : null,
          h(
            "button",
            { type: "button", class: "secondary", id: "chat-unlink-bot", onclick: () => void unlink() },
            "Unlink",
          ),
        )
      : h(
          "div",
          {},
          h(
            "p",
            { id: "chat-speaker" },
            "You: replies appear under your own name, at the broadcaster's pace (100 messages per 30 seconds).",
          ),
          h(
            "p",
            {},
            h(
              "a",
              { class: "button secondary-link", href: info.botLinkUrl, id: "chat-link-bot" },
              "Link a bot account",
            ),
            h(
              "span",
              { class: "muted" },
              " Log in to Twitch as the bot (a private window helps). Make it a moderator in your channel so Twitch lets it speak freely.",
            ),
          ),
        ),
    status,
  );
}

function aliasText(aliases: readonly string[]): string {
  return aliases.join(", ");
}

function triggersCard(commands: CommandInfo[]): HTMLElement {
  const headingId = uid("triggers");
  const rows = commands.map((c) => {
    const input = h("input", {
      type: "text",
      id: `aliases-${c.command}`,
      value: aliasText(c.aliases),
      placeholder: "none",
      "aria-describedby": `aliases-${c.command}-status`,
      maxlength: 300,
    });
    const status = h("span", { id: `aliases-${c.command}-status`, class: "save-status" });
    const save = h("button", { type: "submit", class: "secondary small" }, "Save");
    const form = h(
      "form",
      { class: "inline-field trigger-row", novalidate: true },
      h(
        "span",
        { class: c.enabled ? "" : "muted" },
        h("code", {}, `!${c.command}`),
        c.enabled ? "" : " (off)",
      ),
      h("label", { for: input.id }, "also"),
      input,
      save,
      status,
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const aliases = input.value
        .split(/[,\s]+/)
        .map((a) => a.trim())
        .filter(Boolean);
      try {
        const saved = await sendData<CommandInfo>("PUT", `/api/dashboard/commands/${c.command}`, { aliases });
        input.value = aliasText(saved.aliases);
        fill(status, h("span", { class: "ok-text" }, "Saved."));
        announce(`Triggers of !${c.command} saved.`);
      } catch (error) {
        fill(status, h("span", { class: "error-text" }, errorMessage(error)));
      }
    });
    return h("li", {}, form);
  });
  return h(
    "section",
    { class: "card", "aria-labelledby": headingId },
    h("h2", { id: headingId }, "Triggers"),
    h(
      "p",
      { class: "muted" },
      "A message whose first word is ! plus a command's name or one of its aliases runs it (any case). Separate aliases with commas.",
    ),
    h("ul", { class: "names triggers" }, rows),
    h("h3", {}, "Next to another bot"),
    h(
      "p",
      {},
      "Keep Nightbot, StreamElements or Fossabot for what they do best: turn a command off under Commands and cuebot stays silent on it, or give cuebot's commands aliases the other bot does not use.",
    ),
  );
}

/**
 * One line of the demo chat; a removed one is struck through, dimmed and says so in words; a command
 * that got no reply says why in a faint note under it.
 */
function demoChatLine(line: DemoChatInfo["lines"][number]): HTMLElement {
  const classes = [line.fromCuebot ? "from-cuebot" : "", line.deleted ? "deleted" : ""].filter(Boolean);
  return h(
    "li",
    { class: classes.join(" ") },
    h("time", { datetime: line.at }, time(line.at)),
    h("strong", {}, line.user),
    line.deleted ? h("del", {}, shownText(line.text)) : h("span", {}, shownText(line.text)),
    line.deleted ? h("em", { class: "deleted-note" }, " (deleted by a moderator)") : null,
    line.noReply ? h("small", { class: "no-reply-note" }, NO_REPLY_TEXT[line.noReply]) : null,
  );
}

function demoChatCard(root: HTMLElement): HTMLElement {
  const headingId = uid("demo-chat");
  // Focusable, so the scrolled log can be read with the keyboard too.
  const log = h("ol", {
    class: "demo-chat-log",
    id: "demo-chat-log",
    "aria-live": "polite",
    "aria-label": "Simulated chat",
    tabindex: 0,
  });
  const who = h("select", { id: "demo-chat-user", "aria-label": "Speak as" });
  const text = h("input", {
    type: "text",
    id: "demo-chat-text",
    value: "!followage",
    maxlength: 500,
    "aria-label": "Chat message",
  });
  const status = h("p", { role: "status", class: "save-status" });
  let shown = "";
  const refresh = async () => {
    try {
      const info = await getData<DemoChatInfo>("/api/dashboard/demo/chat");
      if (who.options.length === 0)
        fill(
          who,
          info.viewers.map((v) => h("option", { value: v }, v)),
        );
      // A line a moderator removes later, or a refusal noted after it, changes the log too.
      const key = info.lines.map((l) => `${l.id}${l.deleted ? "-" : ""}${l.noReply ?? ""}`).join();
      if (key === shown) return;
      shown = key;
      fill(log, info.lines.map(demoChatLine));
      log.scrollTop = log.scrollHeight;
    } catch (error) {
      fill(status, h("span", { class: "error-text" }, errorMessage(error)));
    }
  };
  const form = h(
    "form",
    { class: "row", novalidate: true },
    who,
    text,
    h("button", { type: "submit", id: "demo-chat-send" }, "Send"),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const said = await sendData<{ refused: string | null }>("POST", "/api/dashboard/demo/chat", {
        text: text.value,
        user: who.value,
      });
      // Twitch's room refused the line (followers-only, a timeout): say so, as a chatter would see it.
      fill(status, said.refused ? h("span", {}, `Not posted: ${said.refused}`) : null);
      await refresh();
    } catch (error) {
      fill(status, h("span", { class: "error-text" }, errorMessage(error)));
    }
  });
  void refresh();
  every(root, 1000, () => void refresh());
  return h(
    "section",
    { class: "card", "aria-labelledby": headingId },
    h("h2", { id: headingId }, "Try it: simulated chat"),
    h(
      "p",
      { class: "muted" },
      "Demo mode: type as a viewer of your simulated channel. With native chat on, cuebot's reply appears below.",
    ),
    log,
    form,
    status,
  );
}

function render(root: HTMLElement, app: App, info: ChatInfo, commands: CommandInfo[], demo: boolean): void {
  const state = h("div", { class: "stack" });
  const draw = (next: ChatInfo) => fill(state, stateCard(next, draw), speakerCard(next, draw));
  draw(info);
  fill(root, state, demo ? demoChatCard(root) : null, triggersCard(commands));
  // The state moves by itself (connecting → connected); keep it current while the view is open.
  every(root, 2000, () => {
    getData<ChatInfo>("/api/dashboard/chat")
      .then((next) => {
        if (next.state !== info.state || next.reason !== info.reason) {
          info = next;
          draw(next);
        }
      })
      .catch(() => {});
  });
  void app;
}

export const chatView: View = {
  id: "chat",
  title: "Chat",
  render(root, app) {
    void load(
      root,
      () =>
        Promise.all([
          getData<ChatInfo>("/api/dashboard/chat"),
          getData<CommandInfo[]>("/api/dashboard/commands"),
          app.profile(),
        ]),
      ([info, commands, profile]) => render(root, app, info, commands, profile.demo),
    );
  },
};
