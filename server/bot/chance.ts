/**
 * The games of chance (dice, coin, magic 8-ball, roulette) as pure functions of a random source, so
 * tests pass a seeded one and get the same rolls every time.
 */
export type Random = () => number;

/** Mulberry32: a tiny deterministic PRNG for tests and the demo. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export function randomInt(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

export function pickOne<T>(random: Random, items: readonly T[]): T | undefined {
  return items.length === 0 ? undefined : items[Math.floor(random() * items.length)];
}

export const DICE_LIMITS = { maxCount: 10, minSides: 2, maxSides: 1000 } as const;

export function rollDice(random: Random, count: number, sides: number): number[] {
  return Array.from({ length: count }, () => randomInt(random, 1, sides));
}

export function flipCoin(random: Random): "heads" | "tails" {
  return random() < 0.5 ? "heads" : "tails";
}

export const DEFAULT_MAGIC8_ANSWERS = [
  "It is certain.",
  "It is decidedly so.",
  "Without a doubt.",
  "Yes, definitely.",
  "You may rely on it.",
  "As I see it, yes.",
  "Most likely.",
  "Outlook good.",
  "Yes.",
  "Signs point to yes.",
  "Reply hazy, try again.",
  "Ask again later.",
  "Better not tell you now.",
  "Cannot predict now.",
  "Concentrate and ask again.",
  "Don't count on it.",
  "My reply is no.",
  "My sources say no.",
  "Outlook not so good.",
  "Very doubtful.",
] as const;

/** One pull of the trigger: loses with probability 1/chambers. */
export function rouletteLoses(random: Random, chambers: number): boolean {
  return Math.floor(random() * chambers) === 0;
}
