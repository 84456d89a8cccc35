// Which filter, if any, catches a chat line: the filters compiled once per settings change, then each
// line met by them in MODERATION_FILTERS order (pure; the stage acts on the answer).
import {
  type FilterSettings,
  MODERATION_FILTERS,
  type ModerationFilter,
  USER_LEVELS,
  type UserLevel,
} from "../vocabulary.ts";
import type { LineTest, ModerationLine } from "./filter.ts";
import { FILTER_DEFINITIONS } from "./filters/index.ts";

/** One filter ready to judge lines. */
export interface CompiledFilter {
  name: ModerationFilter;
  /** Chatters at this level (index in USER_LEVELS) and above are never caught. */
  exemptFrom: number;
  catches: LineTest;
}

/** The enabled filters of a channel, in the order a line meets them. */
export type CompiledFilters = readonly CompiledFilter[];

export interface JudgeOptions {
  /** The chatter holds a `!permit`: the links filter lets the line through. */
  linksPermitted: boolean;
}

/** Levels never caught by any filter, whatever its `exempt` (the stage skips their lines too). */
const NEVER_CAUGHT: readonly UserLevel[] = ["moderator", "owner"];

/** The enabled filters compiled (a disabled filter costs nothing per line). */
export function compileFilters(settings: FilterSettings): CompiledFilters {
  return MODERATION_FILTERS.filter((name) => settings[name].enabled).map((name) =>
    compileOne(settings, name),
  );
}

function compileOne<F extends ModerationFilter>(settings: FilterSettings, name: F): CompiledFilter {
  const own = settings[name];
  return {
    name,
    exemptFrom: USER_LEVELS.indexOf(own.exempt),
    catches: FILTER_DEFINITIONS[name].compile(own),
  };
}

/** The first filter that catches the line from a chatter at `level`, or null. */
export function judgeLine(
  compiled: CompiledFilters,
  line: ModerationLine,
  level: UserLevel,
  options: JudgeOptions,
): ModerationFilter | null {
  if (NEVER_CAUGHT.includes(level)) return null;
  const rank = USER_LEVELS.indexOf(level);
  for (const filter of compiled) {
    if (rank >= filter.exemptFrom) continue;
    if (filter.name === "links" && options.linksPermitted) continue;
    if (filter.catches(line)) return filter.name;
  }
  return null;
}
