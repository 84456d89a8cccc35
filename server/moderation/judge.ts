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

/** Compiled filters kept by their settings (each may hold large pattern sets); past this many, the oldest go. */
const SHARED_MAX = 100;
const shared = new Map<string, CompiledFilters>();

/**
 * `compileFilters`, shared by every channel with the same settings (most keep the defaults): one
 * compiled copy whose pattern engines (re2js builds its automaton as lines arrive) stay warm, instead
 * of one per channel. Compiled filters hold no per-channel state, so sharing them is safe.
 */
export function sharedFilters(settings: FilterSettings): CompiledFilters {
  const key = JSON.stringify(settings);
  const known = shared.get(key);
  if (known) return known;
  const compiled = compileFilters(settings);
  if (shared.size >= SHARED_MAX) shared.delete(shared.keys().next().value ?? "");
  shared.set(key, compiled);
  return compiled;
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
