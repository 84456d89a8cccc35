// What several filters read of a chat line: its text without its Twitch emotes' names, and how a
// character counts (Unicode-aware: a letter of any script is a letter).
import type { ModerationLine } from "./filter.ts";
import { isUnseen } from "./text-fold.ts";

/**
 * The codes of the most used BTTV, FFZ and 7TV emotes: chat clients with those extensions show them
 * as pictures, but they reach the bot as plain words (not emote fragments). Case as typed.
 */
export const THIRD_PARTY_EMOTES: ReadonlySet<string> = new Set([
  ..."OMEGALUL KEKW LULW KEKL LULE PogU POGGERS PagMan HYPERS COPIUM Aware ICANT GIGACHAD EZ Clap".split(" "),
  ..."monkaS monkaW Sadge Pepega PepeLaugh PepeHands WeirdChamp catJAM pepeD OMEGADANCE".split(" "),
]);

/** The line's text without the words that are its emotes' names (`Kappa`), words joined by a space. */
export function textWithoutEmotes(line: ModerationLine): string {
  if (line.emotes.length === 0) return line.text;
  const emotes = new Set(line.emotes);
  return line.text
    .split(/\s+/)
    .filter((word) => !emotes.has(word))
    .join(" ");
}

/** `textWithoutEmotes` without the THIRD_PARTY_EMOTES codes either. */
export function textWithoutAnyEmotes(line: ModerationLine): string {
  return textWithoutEmotes(line)
    .split(/\s+/)
    .filter((word) => !THIRD_PARTY_EMOTES.has(word))
    .join(" ");
}

/** How a filter sees one code point. */
export type CharacterKind = "capital" | "letter" | "digit" | "space" | "unseen" | "symbol";

const CAPITAL = /^[\p{Lu}\p{Lt}]$/u;
const LETTER = /^\p{L}$/u;
const DIGIT = /^\p{N}$/u;
const SPACE = /^\s$/u;

/** The kind of one code point: ASCII by its code, the rest by Unicode category. */
export function characterKind(char: string): CharacterKind {
  const code = char.charCodeAt(0);
  if (code < 0x80) return asciiKind(code);
  if (CAPITAL.test(char)) return "capital";
  if (LETTER.test(char)) return "letter";
  if (DIGIT.test(char)) return "digit";
  if (SPACE.test(char)) return "space";
  return isUnseen(char) ? "unseen" : "symbol";
}

function asciiKind(code: number): CharacterKind {
  if (code >= 0x41 && code <= 0x5a) return "capital";
  if (code >= 0x61 && code <= 0x7a) return "letter";
  if (code >= 0x30 && code <= 0x39) return "digit";
  if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) return "space";
  return code < 0x20 || code === 0x7f ? "unseen" : "symbol";
}

/** How many code points of each kind `text` holds. */
export function countKinds(text: string): Record<CharacterKind, number> {
  const counts: Record<CharacterKind, number> = {
    capital: 0,
    letter: 0,
    digit: 0,
    space: 0,
    unseen: 0,
    symbol: 0,
  };
  for (const char of text) counts[characterKind(char)]++;
  return counts;
}

/** How many code points `text` holds (an emoji is one, not two UTF-16 units). */
export function codePointCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xdc00 || unit > 0xdfff) count++;
  }
  return count;
}
