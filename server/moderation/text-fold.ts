// Chat text folded for matching (links, blocked terms): what a viewer reads, not how it was typed.
// Spammers dodge filters with full-width letters (ｅｘａｍｐｌｅ), Cyrillic look-alikes (ехаmple),
// invisible characters inside words and accents piled on letters (reference/moderation.md §9).
import { confusablesMap } from "confusables";

/**
 * The longest text folded, in UTF-16 units: a Twitch line is at most 500 characters, so a longer text
 * (the "try a line" box, a malformed event) is matched on its beginning only and never costs more.
 */
export const MAX_MATCHED_UNITS = 2_000;

/** Printable ASCII only: nothing to fold but case. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * What a reader does not see: format characters (zero-width space and joiners, U+2060, soft hyphen,
 * bidi controls and overrides, tag characters), combining marks (accents, U+034F, variation
 * selectors, also those past U+E0100), the Hangul fillers trolls use as blanks, and the rest of the
 * default-ignorable block U+E0000–U+E0FFF.
 */
const UNSEEN = /[\p{Cf}\p{M}\u115f\u1160\u3164\uffa0\u{e0000}-\u{e0fff}]/gu;

/** The braille blank, a space to a reader. */
const BRAILLE_BLANK = /\u2800/g;

const UNSEEN_CHAR = new RegExp(UNSEEN.source, "u");

/** Whether one character is unseen (see UNSEEN). */
export function isUnseen(char: string): boolean {
  return UNSEEN_CHAR.test(char);
}

/** Full stops of other scripts that NFKD keeps (U+3002 ideographic, also what U+FF61 becomes). */
const OTHER_FULL_STOPS = /[\u3002\uff0e\uff61]/g;

/** German ß (ẞ lower-cased): `ss` as Germans write it without, before `confusables` reads it as b. */
const SHARP_S = /ß/g;

/** `text` cut to `MAX_MATCHED_UNITS`, never between the two halves of a surrogate pair. */
export function boundedText(text: string): string {
  if (text.length <= MAX_MATCHED_UNITS) return text;
  const end = MAX_MATCHED_UNITS - (isHighSurrogate(text.charCodeAt(MAX_MATCHED_UNITS - 1)) ? 1 : 0);
  return text.slice(0, end);
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

/**
 * `text` as filters compare it: compatibility forms folded (NFKD: full-width and mathematical
 * letters, odd spaces), unseen characters dropped (so accents go too), `ß` as `ss`, look-alike
 * letters of other scripts folded to Latin (the `confusables` table; it may give a capital, hence lower-casing last),
 * lower-cased. Printable ASCII takes a fast path (case only). Work is linear in the bounded text.
 */
export function foldText(text: string): string {
  if (text === folded.from) return folded.to;
  const to = foldVisible(visibleText(text));
  folded.from = text;
  folded.to = to;
  return to;
}

/**
 * The last line folded and the last made visible: every filter of a line asks for the same text, so
 * the second asker gets the first one's answer (one comparison, no work; pure, so never stale).
 */
const folded = { from: "", to: "" };
const visible = { from: "", to: "" };

/** `visibleText`'s result with look-alikes folded: `foldText` in two steps, for who needs both. */
export function foldVisible(visible: string): string {
  if (isPlainAscii(visible)) return visible;
  return foldLookAlikes(visible.replace(SHARP_S, "ss")).toLowerCase();
}

/**
 * Two lines that read the same give the same key: folded, white space runs as one space, trimmed. A
 * chat client's invisible "duplicate" suffix or doubled space (reference/moderation.md §9.3) and
 * look-alike letters make no difference (the raid shield's "same text from many chatters").
 */
export function sameTextKey(text: string): string {
  return foldText(text).replace(/\s+/g, " ").trim();
}

/**
 * `text` as a reader sees it, lower-cased, without folding other scripts' letters to Latin: what a
 * host name in another script (`файл.рф`) is found in. The steps of `foldText` but the look-alikes.
 */
export function visibleText(text: string): string {
  if (text === visible.from) return visible.to;
  const bounded = boundedText(text);
  const to = isPlainAscii(bounded) ? bounded.toLowerCase() : seenText(bounded).toLowerCase();
  visible.from = text;
  visible.to = to;
  return to;
}

/** Whether `text` is printable ASCII only (nothing to fold but case). */
export function isPlainAscii(text: string): boolean {
  return PRINTABLE_ASCII.test(text);
}

function seenText(text: string): string {
  return displayOrder(text)
    .normalize("NFKD")
    .replace(UNSEEN, "")
    .replace(BRAILLE_BLANK, " ")
    .replace(OTHER_FULL_STOPS, ".");
}

/** A right-to-left override (U+202E) up to its end (U+202C, or the line's end). */
const RIGHT_TO_LEFT_OVERRIDE = /\u202e([^\u202c]*)/g;

/**
 * Text a right-to-left override shows backwards put in the order a viewer reads it
 * (`\u202Emoc.elpmaxe` shows as example.com).
 */
function displayOrder(text: string): string {
  if (!text.includes("\u202e")) return text;
  return text.replace(RIGHT_TO_LEFT_OVERRIDE, (_, run: string) => [...run].reverse().join(""));
}

/** Each non-ASCII code point the table knows replaced by its Latin letter or digit. */
function foldLookAlikes(text: string): string {
  let folded = "";
  for (const char of text) {
    folded += char.charCodeAt(0) < 0x80 ? char : (confusablesMap.get(char) ?? char);
  }
  return folded;
}
