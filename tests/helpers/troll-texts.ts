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
