import { capCodePoints } from "../alerts/plain-text.ts";
import type { RunCause } from "./model.ts";

/*
 * An action's text with what set it off (CONTRACT §6 "Actions"): `{user}` who set it off (the
 * streamer for a button), `{amount}`, `{reward}` and `{message}` (what the viewer typed with the
 * event, or the command's words). Pure. A value is put in once and never read again for braces, so a
 * viewer's `{user}` stays as typed; each value and the whole text are bounded (by code points, a pair
 * never cut), so a flood of combining marks arrives as typed, just not without end.
 */

/** Most code points a value brings in (Twitch holds a chat message and an event's text to 500). */
export const MAX_VALUE_POINTS = 500;
/** Most code points of a filled text (an OBS text source's; a chat line is cut shorter by chat itself). */
export const MAX_TEXT_POINTS = 2_000;

const PLACEHOLDER = /\{(user|amount|reward|message)\}/g;

/** `text` cut to at most `max` code points (a pair never cut). */
export function bounded(text: string, max: number): string {
  // At most `max` UTF-16 units holds at most `max` code points: no need to count them.
  return text.length <= max ? text : capCodePoints(text, max);
}

function placeholderValue(cause: RunCause, name: string): string {
  switch (name) {
    case "user":
      return cause.user;
    case "amount":
      return cause.amount === null ? "" : String(cause.amount);
    case "reward":
      return cause.reward ?? "";
    default:
      return cause.message ?? "";
  }
}

/** `text` with its placeholders filled from `cause`; an unknown `{word}` stays as written. */
export function fillPlaceholders(text: string, cause: RunCause): string {
  const filled = text.replace(PLACEHOLDER, (_, name: string) =>
    bounded(placeholderValue(cause, name), MAX_VALUE_POINTS),
  );
  return bounded(filled, MAX_TEXT_POINTS);
}
