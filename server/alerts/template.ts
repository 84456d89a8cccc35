/**
 * An alert's text from its type's template (`{user} cheered {amount} bits!`), the check a template
 * passes at the field, and the chat thanks line with native chat's rules (server/core/chat-echo.ts).
 * Pure.
 *
 * The chat line is posted under the streamer's name, where Twitch's link filter, AutoMod and blocked
 * terms do not apply (CONTRACT §6), so it repeats nothing a viewer chose freely: never `{message}`, and
 * `{user}` only when the name is login-shaped. A name that is not (a display name in another script, or
 * anything odd) is left out and the sentence tidied around the gap: "Thanks for the raid, {user}!" becomes
 * "Thanks for the raid!", "{user} just followed, welcome!" becomes "Just followed, welcome!".
 */
import { ALERT_PLACEHOLDERS, templateProblem } from "../../db/alert-rules.ts";
import { echoable } from "../core/chat-echo.ts";
import { withoutCommandLead } from "../core/chat-lead.ts";
import type { AlertFields, AlertType } from "./model.ts";
import { capCodePoints, oneLine } from "./plain-text.ts";

export const PLACEHOLDERS = ALERT_PLACEHOLDERS;
export type Placeholder = (typeof PLACEHOLDERS)[number];

/** The longest chat line sent (Twitch takes 500; room is left for native chat's own marks). */
export const CHAT_LINE_MAX = 480;

/** `{` … `}` with no brace inside: every such pair in a template must be a placeholder. */
const BRACED = /\{([^{}]*)\}/g;

function isPlaceholder(name: string): name is Placeholder {
  return (PLACEHOLDERS as readonly string[]).includes(name);
}

/**
 * Null when `text` may be saved as a template, else the sentence telling why (empty, too long, not one
 * line, an unknown placeholder named only when it is a short word, `{message}` in a chat line). The
 * store checks with it, so it lives beside the settings (db/alert-rules.ts).
 */
export const checkTemplate: (text: string, options: { allowMessage: boolean }) => string | null =
  templateProblem;

/** A placeholder's value for this alert, or null. `{viewers}` is a raid's amount (any type's without one). */
function fieldText(name: Placeholder, fields: AlertFields, type: AlertType | undefined): string | null {
  const value =
    name === "viewers" ? (type === undefined || type === "raid" ? fields.amount : null) : fields[name];
  return value === null ? null : String(value);
}

/** Where a placeholder had nothing to say: closed up afterwards (a private-use character, never kept). */
const GAP = "\uE000";

/** The template filled by `value`; each empty placeholder is a GAP; the result is one line. */
function fill(template: string, value: (name: Placeholder) => string | null): string {
  const filled = template.replace(BRACED, (typed, name: string) => {
    if (!isPlaceholder(name)) return typed;
    const text = value(name)?.replaceAll(GAP, "") ?? "";
    return text === "" ? GAP : text;
  });
  return closeGaps(oneLine(filled));
}

/**
 * The sentence with its gaps closed, touching nothing else the streamer wrote: an `@` or a comma left
 * before a gap goes with it ("Thanks for the raid, {user}!" → "Thanks for the raid!"), a sentence that
 * opened with a gap opens with its next word, capitalised ("{user} followed, welcome!" → "Followed,
 * welcome!"), a gap inside a sentence leaves one space.
 */
function closeGaps(text: string): string {
  if (!text.includes(GAP)) return text;
  const opening = /^[\s\uE000]*\uE000[\s,;:!?.\-\uE000]*/u;
  const unmarked = text.replace(/@+(?=\uE000)/gu, "");
  const opened = opening.test(unmarked);
  const closed = unmarked
    .replace(opening, "")
    .replace(/[\s,;:]*\uE000[\s,;:\uE000]*(?=[!?.]|$)/gu, "")
    .replace(/\s*[,;:]?\s*\uE000[\s\uE000]*[,;:]?\s*/gu, " ")
    .replace(/ {2,}/g, " ")
    .trim();
  return opened ? closed.charAt(0).toUpperCase() + closed.slice(1) : closed;
}

/**
 * The template with each placeholder replaced by its field; a field that is null leaves nothing (and no
 * doubled space or stray comma). A brace pair that is no placeholder (a template saved before a check)
 * stays as typed.
 */
export function fillTemplate(template: string, fields: AlertFields, type: AlertType): string {
  return fill(template, (name) => fieldText(name, fields, type));
}

/**
 * The chat thanks line, or null when nothing worth sending remains. `{message}` is always empty, `{user}`
 * is the name only when login-shaped (else the gap is closed), the line is one line of at most
 * CHAT_LINE_MAX code points and never opens with a chat command (core/chat-lead.ts). `type` tells whether
 * `{viewers}` is the amount (a raid's); without it `{viewers}` reads the amount.
 */
export function chatThanksLine(template: string, fields: AlertFields, type?: AlertType): string | null {
  const name = echoable(fields.user);
  const filled = fill(template, (key) => {
    if (key === "message") return null;
    if (key === "user") return name;
    return fieldText(key, fields, type);
  });
  const line = capCodePoints(withoutCommandLead(filled), CHAT_LINE_MAX).trim();
  return /[\p{L}\p{N}]/u.test(line) ? line : null;
}
