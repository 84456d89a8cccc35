// Bot setup: the ready lines for Nightbot, StreamElements, Fossabot and Streamer.bot with this server's
// public URL and the streamer's key (fetched only on a click), copy buttons, and "test this line",
// which calls cuebot exactly as that bot would and shows the chat reply.
import { type CommandName, TEST_CALL_HEADER } from "../../../vocabulary.ts";
import { getData } from "../lib/api.ts";
import { KEY_MASK, type RevealButton, revealButton, revealKey, showForAWhile } from "../lib/api-key.ts";
import { BOTS, type Bot, type BotId, botCall, botLines, isLocalUrl, type Sample } from "../lib/bot-lines.ts";
import { copyText } from "../lib/copy.ts";
import { fill, h, uid } from "../lib/dom.ts";
import { load, showError } from "../lib/states.ts";
import type { CommandInfo, Profile } from "../lib/types.ts";
import type { View } from "../view.ts";

function reachability(profile: Profile): HTMLElement {
  const url = profile.public_url;
  if (!isLocalUrl(url)) {
    return h(
      "p",
      { class: "notice" },
      "Chat bots call cuebot at ",
      h("code", {}, url),
      ". Cloud bots (Nightbot, StreamElements, Fossabot) need that address to be reachable from the internet.",
    );
  }
  return h(
    "div",
    { class: "notice warn", id: "local-warning" },
    h(
      "p",
      {},
      h("strong", {}, "Cloud bots cannot reach this server. "),
      "Nightbot, StreamElements and Fossabot run on their own servers on the internet; ",
      h("code", {}, url),
      " only exists on this computer, so their calls would fail.",
    ),
    h(
      "p",
      {},
      "To use them, give cuebot a public address: put it behind a reverse proxy (Caddy, nginx) or a tunnel with an https address, and start it with ",
      h("code", {}, "cuebot serve --public-url https://your.address"),
      " (or ",
      h("code", {}, "CUEBOT_PUBLIC_URL"),
      "; add ",
      h("code", {}, "--trust-proxy"),
      " behind a proxy). The lines below then carry that address.",
    ),
    h(
      "p",
      {},
      h("strong", {}, "Streamer.bot"),
      " runs on your PC, so its lines work with this local address as they are.",
    ),
  );
}

function sampleForm(profile: Profile, demo: boolean): { element: HTMLElement; sample: () => Sample } {
  const viewer = h("input", {
    type: "text",
    value: demo ? "viewer_anna" : profile.login,
    autocomplete: "off",
    spellcheck: "false",
  });
  const words = h("input", { type: "text", value: demo ? "otherstreamer" : "", autocomplete: "off" });
  const element = h(
    "fieldset",
    { class: "sample" },
    h("legend", {}, "Test as"),
    h("label", { class: "field" }, h("span", {}, "Viewer who types the command"), viewer),
    h("label", { class: "field" }, h("span", {}, "Words after the command (!so, !8ball)"), words),
  );
  return {
    element,
    sample: () => ({
      channel: profile.login,
      viewer: viewer.value.trim() || profile.login,
      words: words.value.trim(),
    }),
  };
}

async function testLine(bot: BotId, command: CommandName, sample: Sample, out: HTMLElement): Promise<void> {
  fill(out, h("span", { class: "muted" }, "Calling cuebot as the bot would…"));
  try {
    const call = botCall(bot, command, await revealKey(), sample);
    // Sent without the session cookie, like the bot: only the key in the line counts. Marked as a
    // test, so the Overview does not count it as the viewer's call.
    const headers = { ...call.headers, [TEST_CALL_HEADER]: "1" };
    const response = await fetch(call.path, { headers, credentials: "omit" });
    const text = await response.text();
    const status = response.headers.get("x-cuebot-status") ?? String(response.status);
    fill(
      out,
      h("span", { class: "chat-label" }, "Chat shows:"),
      h("q", { class: "chat-line" }, text),
      status === "200" ? null : h("span", { class: "muted" }, ` (status ${status})`),
    );
  } catch (error) {
    showError(out, error, () => void testLine(bot, command, sample, out));
  }
}

function lineList(
  bot: Bot,
  profile: Profile,
  commands: CommandInfo[],
  keyShown: () => string | null,
  sample: () => Sample,
): HTMLElement {
  const enabled = commands.filter((c) => c.enabled).map((c) => c.command);
  const off = commands.filter((c) => !c.enabled).map((c) => c.command);
  const shown = botLines(bot.id, profile.public_url, keyShown() ?? KEY_MASK, enabled);
  return h(
    "div",
    { class: "bot-lines" },
    h("p", { class: "muted" }, bot.howTo),
    shown.length === 0
      ? h("p", { class: "state state-empty" }, "Every command is turned off; turn some on in Commands.")
      : null,
    h(
      "ul",
      { class: "lines" },
      shown.map((line) => {
        const out = h("div", { class: "test-out", role: "status" });
        return h(
          "li",
          { class: "line-card" },
          h(
            "div",
            { class: "line-head" },
            h("strong", {}, line.chat),
            h("span", { class: "muted" }, line.command),
          ),
          h("code", { class: "line" }, line.line),
          h(
            "div",
            { class: "row" },
            h(
              "button",
              {
                type: "button",
                class: "secondary small",
                "aria-label": `Copy the ${bot.name} line for ${line.chat}`,
                onclick: async () => {
                  const key = await revealKey();
                  const full = botLines(bot.id, profile.public_url, key, [line.command])[0]!.line;
                  await copyText(full, `The ${line.chat} line`);
                },
              },
              "Copy",
            ),
            h(
              "button",
              {
                type: "button",
                class: "small",
                "aria-label": `Test this line (${bot.name}, ${line.chat})`,
                "data-test-line": `${bot.id}:${line.command}`,
                onclick: () => void testLine(bot.id, line.command, sample(), out),
              },
              "Test this line",
            ),
          ),
          out,
        );
      }),
    ),
    off.length
      ? h("p", { class: "muted" }, `Turned off (no line): ${off.join(", ")}. Turn them on in Commands.`)
      : null,
  );
}

function render(root: HTMLElement, profile: Profile, commands: CommandInfo[]): void {
  let key: string | null = null;
  let current: Bot = BOTS[0]!;
  const samples = sampleForm(profile, profile.demo);
  const panel = h("div", { id: "bot-panel", role: "tabpanel" });
  const keyState = h("span", { class: "muted", role: "status" });
  const draw = () =>
    fill(
      panel,
      lineList(current, profile, commands, () => key, samples.sample),
    );
  let hide = () => {};
  const keyButton: RevealButton = revealButton(
    { class: "secondary small", id: "show-key-in-lines" },
    { reveal: "Show my key in the lines", hide: "Hide my key in the lines" },
    {
      reveal: async () => {
        try {
          key = await revealKey();
          keyButton.shown();
          draw();
          hide = showForAWhile(h("span", {}), keyState, key, () => {
            key = null;
            keyButton.hidden();
            draw();
          });
        } catch (error) {
          showError(keyState, error, () => keyButton.element.click());
        }
      },
      hide: () => hide(),
    },
  );
  const tabs = h(
    "div",
    { class: "tabs", role: "tablist", "aria-label": "Chat bot" },
    BOTS.map((bot) =>
      h(
        "button",
        {
          type: "button",
          role: "tab",
          id: `tab-${bot.id}`,
          "aria-controls": "bot-panel",
          "aria-selected": bot === current ? "true" : "false",
          tabindex: bot === current ? "0" : "-1",
        },
        bot.name,
      ),
    ),
  );
  const select = (bot: Bot, focus: boolean) => {
    current = bot;
    for (const tab of tabs.querySelectorAll<HTMLButtonElement>("[role=tab]")) {
      const on = tab.id === `tab-${bot.id}`;
      tab.setAttribute("aria-selected", String(on));
      tab.tabIndex = on ? 0 : -1;
      if (on && focus) tab.focus();
    }
    panel.setAttribute("aria-labelledby", `tab-${bot.id}`);
    draw();
  };
  tabs.addEventListener("click", (event) => {
    const id = (event.target as HTMLElement).closest("[role=tab]")?.id.replace("tab-", "");
    const bot = BOTS.find((b) => b.id === id);
    if (bot) select(bot, false);
  });
  // Arrow keys move between tabs (the WAI-ARIA tabs pattern).
  tabs.addEventListener("keydown", (event) => {
    const i = BOTS.indexOf(current);
    const next = event.key === "ArrowRight" ? i + 1 : event.key === "ArrowLeft" ? i - 1 : null;
    if (next === null) return;
    event.preventDefault();
    select(BOTS[(next + BOTS.length) % BOTS.length]!, true);
  });
  const heading = uid("lines");
  fill(
    root,
    reachability(profile),
    h(
      "section",
      { class: "card", "aria-labelledby": heading },
      h("h2", { id: heading }, "Lines for your chat bot"),
      h(
        "p",
        {},
        "Each line has this server's address and your API key in it. The key stays hidden until you ask for it; Copy always copies the real key.",
      ),
      h("div", { class: "row" }, keyButton.element, keyState),
      samples.element,
      tabs,
      panel,
    ),
  );
  select(current, false);
}

export const botSetupView: View = {
  id: "bots",
  title: "Bot setup",
  render(root, app) {
    void load(
      root,
      () => Promise.all([app.profile(), getData<CommandInfo[]>("/api/dashboard/commands")]),
      ([profile, commands]) => render(root, profile, commands),
    );
  },
};
