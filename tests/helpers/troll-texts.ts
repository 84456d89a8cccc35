import { expect } from "bun:test";

/**
 * What trolls type where a name is expected, to make the bot post it under the streamer's name
 * (CONTRACT §6: a reply never repeats it). None of it is login-shaped.
 */
export const TROLL_TEXTS = [
  "https://evil.example/free-subs",
  "evil.example",
  "free\u2800subs\u2800at\u2800evil\u2800example",
  "free\u200bsubs\u200bat\u200bevilexample",
  "\u202eelpmaxe\u202clive",
  "fre\u0301e_su\u0308bs",
  "free subs at evil example",
  "<script>alert(1)</script>",
];

/**
 * Names that fold into a plain ASCII name (`kick`, `so`, `info`, `fix`) under lower-casing (the
 * Kelvin sign), upper-casing (the long s, the dotted capital I) or compatibility normalisation
 * (fullwidth letters, the "fi" ligature): a name is checked before it is folded, so each is refused.
 */
export const FOLDING_LOOKALIKES = [
  "\u212Aick",
  "\u017Fo",
  "\uFF4B\uFF49\uFF43\uFF4B",
  "\u0130nfo",
  "\uFB01x",
];

/** Pieces of the texts above that must never reach a reply. */
const MARKERS = ["evil", "free", "subs", "elpmaxe", "script", "\u2800", "\u200b", "\u202e", "\u0301"];

export function expectNoEcho(line: string): void {
  for (const marker of MARKERS) expect(line.toLowerCase()).not.toContain(marker);
}

/** What a line may open with that Twitch or another bot in the channel reads as a command. */
export const COMMAND_CHARACTERS = ["!", "/", ".", "\\"];

/**
 * Invisible characters and blank look-alikes a troll puts before a command character so that a check
 * of the first character lets it through (issue 34): format characters, default-ignorables, blanks.
 */
export const INVISIBLE_LEADS = [
  "\u200b",
  "\u00ad",
  "\u034f",
  "\u{e0000}",
  "\u{e0001}",
  "\u{e0041}",
  "\u{e0fff}",
  "\u2800",
  "\u3164",
  "\ufeff",
  "\u2060",
  "\uffa0",
  "\u115f",
  "\u1160",
  "\u2000",
  "\u200a",
  "\u205f",
  "\u3000",
  "\u00a0",
  "\u180e",
  "\ufe0f",
  "\u{e0100}",
  "\u200d",
  "\u202e",
  "\u0301",
];

/** True when `line` opens, after any invisible characters, with a command character. */
export function leadsWithCommand(line: string): boolean {
  const visible = [...line].find((char) => !INVISIBLE_LEADS.includes(char) && !/\s/u.test(char));
  return visible !== undefined && COMMAND_CHARACTERS.includes(visible);
}
