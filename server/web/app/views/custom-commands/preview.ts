// The live preview of a command's reply: what chat would answer a chosen viewer, at a chosen level,
// typing chosen words after the trigger (POST /custom-commands/test; nothing is stored or counted).
// It runs on "Preview" and 700 ms after the last keystroke in the response, and is announced politely.
import { sendData } from "../../lib/api.ts";
import { fill, h } from "../../lib/dom.ts";
import { type Field, field, textInput } from "../../lib/form-fields.ts";
import { clearErrorAt, levelSelect, selectField, showRefusal } from "./fields.ts";
import { API, type PreviewReply, type UserLevel } from "./model.ts";

/** What the form holds now, for the preview: the response and the command's level (and name, if stored). */
export interface PreviewSource {
  response: () => string;
  userLevel: () => UserLevel;
  /** A stored command's name: its count is what `$(count)` starts from. */
  name?: string;
}

export interface PreviewPanel {
  element: HTMLElement;
  /** Runs the preview now (pressed: a refused field gets focus). */
  run: () => Promise<void>;
  /** Runs it once typing pauses. */
  schedule: () => void;
}

const DEBOUNCE_MS = 700;

function replyLine(reply: PreviewReply): Node[] {
  if (!reply.answered || reply.text === null)
    return [h("span", { class: "muted" }, reply.reason ?? "Chat would post nothing.")];
  return [
    h("span", { class: "chat-label" }, "Chat would show:"),
    h("q", { class: "chat-line cc-preview-text" }, reply.text),
  ];
}

/**
 * The viewer, their level and their words. `formFields` are the form's (all of them registered before
 * this is built), so a refusal of `response` lands at the form's field.
 */
export function previewPanel(source: PreviewSource, viewer: string, formFields: Field[]): PreviewPanel {
  const fields = [...formFields];
  const user = textInput(viewer, 25, { spellcheck: "false" });
  const level = levelSelect("everyone");
  const args = textInput("", 500, { placeholder: "e.g. @lurker_eve" });
  const out = h(
    "div",
    { class: "preview cc-preview-out", role: "status", "aria-live": "polite" },
    h("span", { class: "muted" }, "The reply appears here while you type, or press Preview."),
  );
  let timer = 0;
  let asked = 0;
  // The field the last preview's refusal was shown at: each run takes it away first.
  let placed: Field | undefined;
  /** `pressed`: the streamer asked (Preview), so a refused field may take focus; typing never moves it. */
  const preview = async (pressed: boolean) => {
    window.clearTimeout(timer);
    if (placed) clearErrorAt(placed);
    placed = undefined;
    // Numbered before anything else, so an answer still on its way is dropped even when this run asks nothing.
    const ticket = ++asked;
    const response = source.response();
    if (response.trim() === "") {
      fill(out, h("span", { class: "muted" }, "Type a response to see the reply."));
      return;
    }
    try {
      const reply = await sendData<PreviewReply>("POST", `${API}/test`, {
        ...(source.name ? { name: source.name } : {}),
        response,
        userLevel: source.userLevel(),
        user: user.value.trim().replace(/^@/, ""),
        level: level.value,
        args: args.value,
      });
      // An older answer arriving after a newer one is dropped.
      if (ticket === asked) fill(out, replyLine(reply));
    } catch (error) {
      if (ticket === asked) placed = showRefusal(error, out, fields, undefined, { focus: pressed });
    }
  };
  const run = () => preview(true);
  const schedule = () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => void preview(false), DEBOUNCE_MS);
  };
  for (const input of [user, args]) input.addEventListener("input", schedule);
  level.addEventListener("change", schedule);
  const element = h(
    "fieldset",
    { class: "cc-preview" },
    h("legend", {}, "Preview"),
    h(
      "div",
      { class: "field-row" },
      field("user", "Viewer (Twitch login)", user, fields),
      selectField("Viewer's level", level),
      field("args", "Words after the command", args, fields),
    ),
    h(
      "button",
      { type: "button", class: "secondary small cc-preview-button", onclick: () => void run() },
      "Preview",
    ),
    out,
  );
  return { element, run, schedule };
}
