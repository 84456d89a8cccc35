// Length limits the way the server counts them: in code points (an emoji is one character, as on
// Twitch), shown as a counter under the field and checked by the browser's own validity, so a text
// that is too long gets its error at the field and is never cut short behind the streamer's back
// (as `maxlength` would do to a paste).
import { h } from "./dom.ts";

export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

export interface LimitOptions {
  /** Refuse line breaks, tabs and other control characters too (a chat line is one line of plain text). */
  oneLine?: boolean;
  /** Another rule of the field, checked with the length (a message, or "" when fine). */
  rule?: () => string;
}

/** What the server refuses in a line once trimmed: line breaks, tabs, NUL (db/chat-bot-rules.ts). */
const CONTROL = /\p{Cc}/u;

/** Why `text` cannot be sent, or "" when it can. */
function problemOf(text: string, max: number, options: LimitOptions): string {
  const line = text.trim();
  const length = codePointLength(line);
  if (length > max) return `At most ${max} characters (this has ${length}).`;
  // Leading and trailing ones are trimmed away by the server, so only those inside count.
  if (options.oneLine && CONTROL.test(line))
    return "One line of plain text: remove the line breaks and tabs.";
  return "";
}

/**
 * Keeps `input`'s validity in step with its length and answers the counter ("12 / 500") to put in
 * the field's hint. With `oneLine`, Enter submits the form instead of starting a second line, and
 * only while its submit button is enabled (a save under way is not sent twice).
 */
export function limitLength(
  input: HTMLInputElement | HTMLTextAreaElement,
  max: number,
  options: LimitOptions = {},
): HTMLElement {
  const counter = h("span", { class: "counter" });
  const update = () => {
    input.setCustomValidity(problemOf(input.value, max, options) || (options.rule?.() ?? ""));
    counter.textContent = `${codePointLength(input.value.trim())} / ${max}`;
  };
  input.addEventListener("input", update);
  if (options.oneLine && input instanceof HTMLTextAreaElement) {
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        const submit = input.form?.querySelector<HTMLButtonElement>("button[type=submit]");
        if (submit?.disabled) return;
        input.form?.requestSubmit(submit ?? null);
      }
    });
  }
  update();
  return counter;
}
