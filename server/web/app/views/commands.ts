// Commands: every setting the panel API accepts, per command: on/off, cooldown, the shoutout template
// (placeholders listed, live preview through the test-run endpoint), the magic 8-ball's answers, the
// roulette's settings. Errors appear at the field; a failed save keeps what was typed.

import {
  type CommandName,
  GAME_COMMANDS,
  type GameCommandName,
  MAX_COOLDOWN_SECONDS,
  MAX_TIMEOUT_SECONDS,
} from "../../../vocabulary.ts";
import { errorMessage, getData, sendData } from "../lib/api.ts";
import { fill, h, uid } from "../lib/dom.ts";
import {
  checkbox,
  type Field,
  field,
  numberInput,
  showServerError,
  validLocally,
} from "../lib/form-fields.ts";
import { announce, load } from "../lib/states.ts";
import type { CommandInfo, Profile } from "../lib/types.ts";
import type { View } from "../view.ts";
import { gameSection, loadGamePlayer, playerCard } from "./commands/game.ts";

function isGameInfo(info: CommandInfo): info is CommandInfo & { command: GameCommandName } {
  return (GAME_COMMANDS as readonly CommandName[]).includes(info.command);
}

const SHOUTOUT_PLACEHOLDERS: [string, string][] = [
  ["{name}", "their display name"],
  ["{game}", "the category they last streamed"],
  ["{title}", "their stream title"],
  ["{link}", "their channel link"],
];

/** What the test run asks, per command, and an example for the demo channel. */
const TEST_INPUT: Partial<Record<CommandName, { param: string; label: string; demo: string }>> = {
  followage: { param: "user", label: "Viewer", demo: "viewer_anna" },
  shoutout: { param: "user", label: "Channel to shout out", demo: "otherstreamer" },
  magic8: { param: "question", label: "Question", demo: "Will we win tonight?" },
  roulette: { param: "user", label: "Who pulls the trigger", demo: "viewer_anna" },
  dice: { param: "sides", label: "Sides", demo: "20" },
};

/**
 * One answer: a box that wraps and grows with its text, so a long answer reads whole at any width.
 * An answer is one chat line: Enter adds no line break, and a pasted one becomes a space.
 */
function answerInput(text: string): HTMLTextAreaElement {
  const input = h("textarea", { rows: 1, maxlength: 200, required: true, class: "answer-text" }, text);
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") event.preventDefault();
  });
  input.addEventListener("input", () => {
    if (/[\r\n]/.test(input.value)) input.value = input.value.replace(/\s*[\r\n]+\s*/g, " ");
  });
  return input;
}

function answersEditor(
  initial: string[],
  fields: Field[],
  changed: () => void,
): { element: HTMLElement; value: () => string[] } {
  const list = h("ol", { class: "answers" });
  const rows: { input: HTMLTextAreaElement; row: HTMLElement }[] = [];
  const renumber = () => {
    // Fields are re-registered so server errors ("answers.3") still find the right input.
    for (let i = fields.length - 1; i >= 0; i--)
      if (fields[i]!.path.startsWith("options.answers.")) fields.splice(i, 1);
    rows.forEach((r, i) => {
      r.input.setAttribute("aria-label", `Answer ${i + 1}`);
      const error = r.row.querySelector<HTMLElement>(".field-error")!;
      r.input.dataset.field = `options.answers.${i}`;
      fields.push({ path: `options.answers.${i}`, input: r.input, error });
    });
  };
  const addRow = (text: string) => {
    const input = answerInput(text);
    const error = h("span", { class: "field-error", id: uid("err") });
    input.setAttribute("aria-describedby", error.id);
    input.addEventListener("input", changed);
    const remove = h("button", { type: "button", class: "secondary small" }, "Remove");
    const row = h("li", { class: "answer" }, h("div", { class: "answer-row" }, input, remove));
    remove.addEventListener("click", () => {
      if (rows.length === 1) {
        error.textContent = "The 8-ball needs at least one answer.";
        return;
      }
      const index = rows.findIndex((r) => r.row === row);
      rows.splice(index, 1);
      row.remove();
      renumber();
      changed();
      rows[Math.min(index, rows.length - 1)]?.input.focus();
    });
    row.append(error);
    rows.push({ input, row });
    list.append(row);
    renumber();
    return input;
  };
  for (const a of initial) addRow(a);
  const add = h("button", { type: "button", class: "secondary small" }, "Add an answer");
  add.addEventListener("click", () => {
    if (rows.length >= 100) return;
    addRow("").focus();
    changed();
  });
  const legend = uid("answers");
  return {
    element: h(
      "fieldset",
      { class: "answers-box", "aria-labelledby": legend },
      h("legend", { id: legend }, "Answers (1 to 100; one is picked at random)"),
      list,
      add,
    ),
    value: () => rows.map((r) => r.input.value),
  };
}

/** A command's own settings in its card: their inputs, and how to read them back as the API's `options`. */
interface OptionsSection {
  parts: (Node | null)[];
  options: () => Record<string, unknown>;
  /** The input whose edits refresh the preview while one types (the shoutout's template). */
  livePreview?: HTMLTextAreaElement;
}

const NO_OPTIONS: OptionsSection = { parts: [], options: () => ({}) };

/**
 * "Allow" for a feature that needs a Twitch permission beyond the login's (CONTRACT §6): the consent
 * link and what it changes; nothing once granted.
 */
function allowNotice(consentUrl: string | null, id: string, label: string, what: string): HTMLElement | null {
  if (!consentUrl) return null;
  return h(
    "p",
    { class: "notice allow", id },
    h("span", { class: "block" }, what),
    h("a", { class: "button small", href: consentUrl }, label),
    h("span", { class: "muted" }, " Twitch asks you to confirm; everything cuebot may do now stays."),
  );
}

/**
 * !shoutout: the chat message template (placeholders listed) and Twitch's own shoutout, which works
 * only once allowed: until then the option shows as off with its Allow, and its stored choice is kept.
 */
function shoutoutSection(info: CommandInfo, fields: Field[], consentUrl: string | null): OptionsSection {
  const message = h(
    "textarea",
    { rows: 3, maxlength: 300, required: true },
    String(info.options.message ?? ""),
  );
  const wanted = Boolean(info.options.platformShoutout);
  const platform = checkbox(wanted && !consentUrl);
  platform.disabled = consentUrl !== null;
  return {
    parts: [
      field(
        "options.message",
        "Chat message",
        message,
        fields,
        h(
          "span",
          {},
          "Placeholders: ",
          SHOUTOUT_PLACEHOLDERS.flatMap(([p, what], i) => [i ? ", " : "", h("code", {}, p), ` ${what}`]),
        ),
      ),
      h(
        "label",
        { class: "check" },
        platform,
        h(
          "span",
          {},
          "Also send Twitch's own shoutout",
          consentUrl ? h("span", { class: "hint block" }, "Off until you allow it below.") : null,
        ),
      ),
      allowNotice(
        consentUrl,
        "shoutout-consent",
        "Allow Twitch's shoutout",
        "Twitch's own shoutout (a card in your chat with a Follow button) needs your permission on Twitch. Until then !shoutout sends its chat line only.",
      ),
    ],
    options: () => ({ message: message.value, platformShoutout: consentUrl ? wanted : platform.checked }),
    livePreview: message,
  };
}

/** !magic8: the list of answers. */
function magic8Section(info: CommandInfo, fields: Field[], changed: () => void): OptionsSection {
  const answers = answersEditor((info.options.answers as string[] | undefined) ?? [], fields, changed);
  return { parts: [answers.element], options: () => ({ answers: answers.value() }) };
}

/** !roulette: the timeout, the chambers, whether subscribers are safe; Allow while moderators cannot be listed. */
function rouletteSection(info: CommandInfo, fields: Field[], consentUrl: string | null): OptionsSection {
  const timeout = numberInput(Number(info.options.timeoutSeconds), 1, MAX_TIMEOUT_SECONDS);
  const chambers = numberInput(Number(info.options.chambers), 2, 12);
  const protect = checkbox(Boolean(info.options.protectSubscribers));
  return {
    parts: [
      h(
        "div",
        { class: "field-row" },
        field(
          "options.timeoutSeconds",
          "Timeout (seconds)",
          timeout,
          fields,
          document.createTextNode("1 s to 2 weeks"),
        ),
        field(
          "options.chambers",
          "Chambers",
          chambers,
          fields,
          document.createTextNode("one in this many is loaded (2–12)"),
        ),
      ),
      h("label", { class: "check" }, protect, " Subscribers are safe too (never timed out)"),
      allowNotice(
        consentUrl,
        "moderators-consent",
        "Allow listing moderators",
        "cuebot needs your permission to list your moderators, so that none is ever timed out. Until then !roulette random is refused, and a loser whose level chat does not tell is spared.",
      ),
    ],
    options: () => ({
      timeoutSeconds: timeout.valueAsNumber,
      chambers: chambers.valueAsNumber,
      protectSubscribers: protect.checked,
    }),
  };
}

/** What a card reads of the profile: the demo flag, and the consents a command's feature still needs. */
interface CardProfile {
  demo: boolean;
  consents: Profile["consent_urls"];
}

function optionsSection(
  info: CommandInfo,
  fields: Field[],
  profile: CardProfile,
  changed: () => void,
): OptionsSection {
  const { consents } = profile;
  if (info.command === "shoutout") return shoutoutSection(info, fields, consents.platform_shoutout);
  if (info.command === "magic8") return magic8Section(info, fields, changed);
  if (info.command === "roulette") return rouletteSection(info, fields, consents.moderator_list);
  if (isGameInfo(info)) return gameSection(info);
  return NO_OPTIONS;
}

/** What a card's parts share: the command, its registered fields, the settings as the form holds them now. */
interface CardContext {
  command: CommandName;
  fields: Field[];
  settings: () => Record<string, unknown>;
}

/** The "Test with" input of a command whose test run takes an argument (a viewer, a question, sides). */
interface TestRunInput {
  param: string;
  input: HTMLInputElement;
  row: HTMLElement;
}

function testRunInput(command: CommandName, demo: boolean): TestRunInput | null {
  const test = TEST_INPUT[command];
  if (!test) return null;
  const input = h("input", { type: "text", id: uid("t"), value: demo ? test.demo : "", autocomplete: "off" });
  const row = h("div", { class: "field" }, h("label", { for: input.id }, `Test with: ${test.label}`), input);
  return { param: test.param, input, row };
}

/** "Try it": runs the command through the test-run endpoint with the form's settings, into `preview`. */
function previewRunner(
  card: CardContext,
  preview: HTMLElement,
  test: TestRunInput | null,
): () => Promise<void> {
  return async () => {
    if (!validLocally(card.fields)) return;
    fill(preview, h("span", { class: "muted" }, "Asking cuebot…"));
    const argument = test?.input.value.trim();
    const query = test && argument ? `?${test.param}=${encodeURIComponent(argument)}` : "";
    try {
      const reply = await sendData<{ text: string }>(
        "POST",
        `/api/dashboard/test/${card.command}${query}`,
        card.settings(),
      );
      fill(
        preview,
        h("span", { class: "chat-label" }, "Chat would show:"),
        h("q", { class: "chat-line" }, reply.text),
      );
    } catch (error) {
      showServerError(error, preview, card.fields);
    }
  };
}

/** Runs the preview 700 ms after the last keystroke in `input`. */
function previewWhileTyping(input: HTMLTextAreaElement, runPreview: () => Promise<void>): void {
  let timer = 0;
  input.addEventListener("input", () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => void runPreview(), 700);
  });
}

/** Save: the local checks, then the PUT; the outcome in `status` and announced. */
function saveOnSubmit(
  form: HTMLFormElement,
  card: CardContext,
  status: HTMLElement,
  dirty: HTMLElement,
): void {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    fill(status);
    if (!validLocally(card.fields)) return;
    try {
      await sendData("PUT", `/api/dashboard/commands/${card.command}`, card.settings());
      dirty.hidden = true;
      fill(status, h("span", { class: "ok-text" }, "Saved."));
      announce(`${card.command}: saved.`);
    } catch (error) {
      // What was typed stays in the form, so a fix and a second Save is all it takes.
      showServerError(error, status, card.fields);
      announce(`${card.command}: not saved. ${errorMessage(error)}`, "error");
    }
  });
}

/** One command's card: on/off, cooldown, its own settings, the test run, Save and "Try it". */
function commandCard(info: CommandInfo, profile: CardProfile): HTMLElement {
  const { demo } = profile;
  const fields: Field[] = [];
  const status = h("p", { class: "save-status", role: "status" });
  const preview = h("div", { class: "preview", role: "status", "aria-live": "polite" });
  const dirty = h("span", { class: "muted unsaved", hidden: true }, "Unsaved changes");
  const changed = () => {
    dirty.hidden = false;
  };
  const enabled = checkbox(info.enabled);
  const cooldown = numberInput(info.cooldownSeconds, 0, MAX_COOLDOWN_SECONDS);
  const own = optionsSection(info, fields, profile, changed);
  const hasOptions = Object.keys(info.defaults).length > 0;
  const card: CardContext = {
    command: info.command,
    fields,
    settings: () => ({
      enabled: enabled.checked,
      cooldownSeconds: cooldown.valueAsNumber,
      ...(hasOptions ? { options: own.options() } : {}),
    }),
  };
  const test = testRunInput(info.command, demo);
  const runPreview = previewRunner(card, preview, test);
  if (own.livePreview) previewWhileTyping(own.livePreview, runPreview);

  const form = h(
    "form",
    { class: "command-form", novalidate: true, "data-command": info.command },
    h("label", { class: "check switch" }, enabled, ` On: chat can use !${info.command}`),
    field("cooldownSeconds", "Cooldown (seconds, 0–3600)", cooldown, fields),
    ...own.parts,
    test?.row,
    h(
      "div",
      { class: "row" },
      h("button", { type: "submit" }, "Save"),
      h("button", { type: "button", class: "secondary", onclick: () => void runPreview() }, "Try it"),
      dirty,
    ),
    status,
    preview,
  );
  form.addEventListener("input", (event) => {
    if (event.target !== test?.input) changed();
  });
  saveOnSubmit(form, card, status, dirty);
  const id = uid("cmd");
  return h(
    "section",
    { class: "card command", id: `command-${info.command}`, "aria-labelledby": id },
    h("h2", { id }, `!${info.command}`),
    h("p", { class: "muted" }, info.description),
    form,
  );
}

export const commandsView: View = {
  id: "commands",
  title: "Commands",
  render(root, app) {
    void load(
      root,
      () => Promise.all([getData<CommandInfo[]>("/api/dashboard/commands"), app.profile(), loadGamePlayer()]),
      ([commands, profile, player]) =>
        fill(
          root,
          h(
            "p",
            { class: "lead" },
            "Turn commands on or off, set cooldowns and change what the bot says. “Try it” runs the command with the settings in the form, before you save.",
          ),
          h(
            "div",
            { class: "cards" },
            commands.flatMap((c) => [
              // The game commands' player, once, ahead of the first of them.
              c.command === GAME_COMMANDS[0] ? playerCard(player, profile.demo) : null,
              commandCard(c, { demo: profile.demo, consents: profile.consent_urls }),
            ]),
          ),
        ),
    );
  },
};
