/**
 * Text that came from Twitch (a name, a viewer's message, a reward's title) made safe to keep and show:
 * one line, no control characters or bidi overrides (a viewer could reverse the rest of an alert with
 * U+202E), no lone surrogates, trimmed and capped in code points (never splitting one in two).
 */

/** Control characters, newlines and tabs included, and the bidi marks, embeddings, overrides and isolates. */
const CONTROL = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** The first `max` code points of `text`. */
export function capCodePoints(text: string, max: number): string {
  let count = 0;
  let end = 0;
  for (const char of text) {
    if (count === max) return text.slice(0, end);
    count += 1;
    end += char.length;
  }
  return text;
}

/** One line of plain text: control characters become spaces (bidi marks vanish), runs of spaces one. */
export function oneLine(text: string): string {
  return text
    .toWellFormed()
    .replace(CONTROL, (char) => (/\s/u.test(char) ? " " : ""))
    .replace(/\s+/gu, " ")
    .trim();
}

/** A string value made one line and capped at `max` code points; null when not a string or empty. */
export function plainText(value: unknown, max: number): string | null {
  if (typeof value !== "string") return null;
  // A huge input is cut first (generously: what is dropped below may shorten it) so work stays small.
  const text = capCodePoints(oneLine(value.slice(0, max * 8)), max).trim();
  return text === "" ? null : text;
}
