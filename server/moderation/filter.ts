import type { FilterSettings, ModerationFilter } from "../vocabulary.ts";

/** A chat line as the filters read it: its text and its Twitch emotes (EventSub's emote fragments). */
export interface ModerationLine {
  text: string;
  /** The texts of the line's emote fragments, in order (emote names also appear in `text`). */
  emotes: readonly string[];
}

/** Whether a compiled filter catches the line (pure; never throws, never runs for long). */
export type LineTest = (line: ModerationLine) => boolean;

/**
 * One spam filter: its settings checked (beyond the ranges every filter shares) and compiled once per
 * settings change into a test of a line.
 */
export interface FilterDefinition<F extends ModerationFilter> {
  name: F;
  /** What is wrong with the filter's own settings (a field named, e.g. "list[3]: …"), or null. */
  check?(settings: FilterSettings[F]): string | null;
  compile(settings: FilterSettings[F]): LineTest;
}
