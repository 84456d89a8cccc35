/** A seeded PRNG (mulberry32): property tests replay the same schedules on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
