/**
 * CPU per chat line of the moderation filters alone: every filter on with its defaults (a few terms,
 * a regex and an allow list added), over a mix of ordinary chat lines, judged as from `everyone`.
 * `bun bench/moderation-filters.ts` prints µs per line (issue 35's target: ≤ 20 µs per message with all
 * filters on, measured end to end by `npm run bench`'s "moderation" row).
 */
import type { ModerationLine } from "../server/moderation/filter.ts";
import { compileFilters, judgeLine } from "../server/moderation/judge.ts";
import { DEFAULT_FILTER_SETTINGS, type FilterSettings } from "../server/vocabulary.ts";

/** Ordinary chat lines, none of which a filter catches (bench/moderation-load.ts types them too). */
export const ORDINARY_LINES: readonly ModerationLine[] = [
  { text: "hi chat", emotes: [] },
  { text: "LUL that was so close", emotes: ["LUL"] },
  { text: "gg wp everyone, see you tomorrow", emotes: [] },
  { text: "what game is this? looks fun", emotes: [] },
  { text: "it takes about 1.5 hours to beat on normal", emotes: [] },
  { text: "Kappa Kappa Kappa", emotes: ["Kappa", "Kappa", "Kappa"] },
  { text: "@streamer you're the best <3 PogChamp", emotes: ["PogChamp"] },
  { text: "привет всем, как дела?", emotes: [] },
  { text: "café au lait ☕ and croissants 🥐", emotes: [] },
  { text: "!followage", emotes: [] },
  { text: "hahaha that's so funny, i can't breathe", emotes: [] },
  { text: "did you see the clip at clips.twitch.tv/abc (allowed)", emotes: [] },
];

/** Every filter on with its defaults, an allow list, a few terms and a regex: the benches' settings. */
export function benchFilterSettings(): FilterSettings {
  const all = structuredClone(DEFAULT_FILTER_SETTINGS);
  all.links.allow = ["*.twitch.tv", "youtube.com", "*.youtube.com", "youtu.be"];
  all.terms.list = ["spam", "free viewers", "buy follow*", "~/(\\d{3}[-.])?\\d{3}[-.]\\d{4}/"];
  return all;
}

function microsecondsPerLine(rounds: number): number {
  const compiled = compileFilters(benchFilterSettings());
  const options = { linksPermitted: false };
  let caught = 0;
  const start = process.cpuUsage();
  for (let round = 0; round < rounds; round++) {
    for (const line of ORDINARY_LINES) if (judgeLine(compiled, line, "everyone", options)) caught++;
  }
  const used = process.cpuUsage(start);
  if (caught !== 0) throw new Error(`ordinary chat was caught ${caught} times`);
  return (used.user + used.system) / (rounds * ORDINARY_LINES.length);
}

if (import.meta.main) {
  microsecondsPerLine(2_000);
  const perLine = microsecondsPerLine(20_000);
  console.log(
    `moderation filters, all on: ${perLine.toFixed(2)} µs CPU per ordinary chat line (target ≤ 20 µs)`,
  );
}
