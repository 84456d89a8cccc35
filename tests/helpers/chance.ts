import type { Random } from "../../server/bot/chance.ts";

/** A "random" source that always answers the given values in turn (then repeats the last). */
export function chance(...values: number[]): Random {
  let i = 0;
  return () => values[Math.min(i++, values.length - 1)] ?? 0;
}
