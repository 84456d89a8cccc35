// Chat lines and settings for the moderation tests.
import type { ModerationLine } from "../../../server/moderation/filter.ts";
import {
  DEFAULT_FILTER_SETTINGS,
  type FilterSettings,
  type ModerationFilter,
} from "../../../server/vocabulary.ts";

/** A chat line with its Twitch emotes' names. */
export function line(text: string, emotes: readonly string[] = []): ModerationLine {
  return { text, emotes };
}

/** A filter's default settings with some changed. */
export function settingsOf<F extends ModerationFilter>(
  name: F,
  changes: Partial<FilterSettings[F]> = {},
): FilterSettings[F] {
  return { ...DEFAULT_FILTER_SETTINGS[name], ...changes };
}

/** Ordinary chat that no filter with its default settings catches. */
export const ORDINARY_CHAT = [
  "hi chat",
  "LUL that was close",
  "gg wp",
  "what game is this?",
  "i.e. the second one, not the first",
  "lol.ok whatever",
  "it takes 1.5 hours to beat",
  "node.js is fine for this",
  "look at kappa.png in the discord",
  "good game. live again tomorrow?",
  "Nice. Fun stream today!",
  "привет всем, как дела?",
  "日本語のチャットです",
  "café au lait ☕",
  "OK",
  "hahaha that's so funny",
  "!followage",
  "@streamer you're the best <3",
];
