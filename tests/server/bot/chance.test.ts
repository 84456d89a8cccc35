import { describe, expect, test } from "bun:test";
import {
  DEFAULT_MAGIC8_ANSWERS,
  flipCoin,
  rollDice,
  rouletteLoses,
  seededRandom,
} from "../../../server/bot/chance.ts";
import { chance } from "../../helpers/chance.ts";

describe("games of chance are deterministic under a seed", () => {
  test("the same seed gives the same rolls, flips and answers", () => {
    expect(rollDice(seededRandom(7), 5, 6)).toEqual(rollDice(seededRandom(7), 5, 6));
    const rolls = rollDice(seededRandom(1), 1000, 6);
    expect(Math.min(...rolls)).toBe(1);
    expect(Math.max(...rolls)).toBe(6);
    expect(flipCoin(chance(0.2))).toBe("heads");
    expect(flipCoin(chance(0.7))).toBe("tails");
    expect(DEFAULT_MAGIC8_ANSWERS).toHaveLength(20);
  });

  test("roulette loses with probability 1/chambers", () => {
    expect(rouletteLoses(chance(0), 6)).toBe(true);
    expect(rouletteLoses(chance(0.5), 6)).toBe(false);
    const random = seededRandom(42);
    const losses = Array.from({ length: 6000 }, () => rouletteLoses(random, 6)).filter(Boolean).length;
    expect(losses).toBeGreaterThan(850);
    expect(losses).toBeLessThan(1150);
  });
});
