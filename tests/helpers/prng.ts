/** The same seeded PRNG the product uses for its games of chance: property tests replay the same schedules. */
export { seededRandom } from "../../server/bot/chance.ts";

/** The most timestamps (sorted ascending) inside any half-open span [a, a + spanMs). */
export function maxInAnySpan(sortedTimes: number[], spanMs: number): number {
  let best = 0;
  let left = 0;
  for (let right = 0; right < sortedTimes.length; right++) {
    while (sortedTimes[right]! - sortedTimes[left]! >= spanMs) left++;
    best = Math.max(best, right - left + 1);
  }
  return best;
}
