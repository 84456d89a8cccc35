import { createHash } from "node:crypto";

/**
 * The seeded players of the game-provider simulator (server.ts), and the stable ids derived from
 * them. They cover the cases chat commands get wrong: a last match on the red team, a 15–15 draw, a
 * non-competitive match, an unloadable (`is_available: false`) list item, a 0-RR loss, an unranked
 * account, names with a space and in Korean and Greek, and games both inside and outside the last 24
 * hours.
 */

export interface SeedMatch {
  /** Stable id part; the match id is derived from it. */
  key: string;
  hoursAgo: number;
  mode: "Competitive" | "Unrated";
  map: string;
  team: "Red" | "Blue";
  roundsWon: number;
  roundsLost: number;
  agent: string;
  kills: number;
  deaths: number;
  assists: number;
  headshots: number;
  bodyshots: number;
  legshots: number;
  /** Competitive only: the RR change recorded in the rank history. */
  rr?: number;
  /** Listed as `is_available: false` with null parts (the provider could not load it). */
  unavailable?: boolean;
}

export interface SeedPlayer {
  name: string;
  tag: string;
  region: "na" | "eu" | "ap" | "kr";
  level: number;
  /** Null: never played ranked (MMR answers 404 code 25). */
  rank: { tier: number; rr: number; lastChange: number } | null;
  /** Newest first. */
  matches: SeedMatch[];
}

function m(
  key: string,
  hoursAgo: number,
  map: string,
  team: "Red" | "Blue",
  score: [number, number],
  agent: string,
  kda: [number, number, number],
  shots: [number, number, number],
  rr: number | null,
  mode: "Competitive" | "Unrated" = "Competitive",
): SeedMatch {
  return {
    key,
    hoursAgo,
    mode,
    map,
    team,
    roundsWon: score[0],
    roundsLost: score[1],
    agent,
    kills: kda[0],
    deaths: kda[1],
    assists: kda[2],
    headshots: shots[0],
    bodyshots: shots[1],
    legshots: shots[2],
    ...(rr === null ? {} : { rr }),
  };
}

function unavailable(key: string, hoursAgo: number, rr: number): SeedMatch {
  return { ...m(key, hoursAgo, "Ascent", "Blue", [0, 0], "", [0, 0, 0], [0, 0, 0], rr), unavailable: true };
}

/**
 * The seeded players. Their expected answers are listed in tests/server/game/routes.test.ts; every
 * number here is chosen so those answers can be checked by hand.
 */
export const SEED_PLAYERS: readonly SeedPlayer[] = [
  {
    name: "Kestrel",
    tag: "EUW",
    region: "eu",
    level: 142,
    rank: { tier: 13, rr: 45, lastChange: 18 },
    matches: [
      m("k1", 1, "Ascent", "Red", [13, 9], "Jett", [21, 12, 5], [20, 55, 5], 18),
      m("k2", 3, "Haven", "Blue", [13, 6], "Raze", [18, 10, 4], [8, 40, 4], null, "Unrated"),
      m("k3", 4, "Bind", "Blue", [15, 15], "Sova", [17, 16, 9], [12, 60, 8], 2),
      m("k4", 6, "Haven", "Blue", [10, 13], "Jett", [14, 17, 3], [10, 45, 5], -16),
      m("k5", 20, "Lotus", "Red", [13, 11], "Reyna", [23, 15, 2], [18, 50, 2], 21),
      unavailable("k6", 22, -14),
      m("k7", 30, "Split", "Blue", [13, 5], "Reyna", [19, 8, 6], [15, 38, 3], 24),
      m("k8", 50, "Pearl", "Blue", [8, 13], "Jett", [12, 17, 4], [7, 48, 6], 0),
      m("k9", 70, "Icebox", "Red", [13, 7], "Sova", [16, 10, 11], [9, 44, 2], 19),
      m("k10", 90, "Breeze", "Blue", [11, 13], "Reyna", [20, 18, 5], [14, 52, 4], -17),
      m("k11", 110, "Fracture", "Red", [13, 10], "Jett", [22, 14, 7], [19, 47, 4], 20),
      m("k12", 130, "Ascent", "Blue", [13, 8], "Sova", [15, 11, 8], [11, 41, 3], 18),
    ],
  },
  {
    name: "Night Owl",
    tag: "NA1",
    region: "na",
    level: 77,
    rank: { tier: 18, rr: 62, lastChange: -19 },
    matches: [
      m("n1", 2, "Pearl", "Blue", [9, 13], "Omen", [11, 16, 8], [6, 39, 3], -19),
      m("n2", 5, "Lotus", "Red", [13, 4], "Omen", [15, 7, 10], [9, 30, 1], 23),
      m("n3", 28, "Ascent", "Blue", [13, 11], "Killjoy", [17, 13, 6], [10, 42, 4], 20),
      m("n4", 52, "Split", "Red", [7, 13], "Omen", [9, 15, 7], [5, 33, 2], -18),
    ],
  },
  {
    name: "호랑이",
    tag: "KR1",
    region: "kr",
    level: 301,
    rank: { tier: 23, rr: 88, lastChange: 15 },
    matches: [
      m("t1", 3, "Bind", "Red", [13, 8], "Omen", [24, 12, 6], [22, 41, 3], 15),
      m("t2", 26, "Haven", "Blue", [11, 13], "Killjoy", [18, 17, 4], [15, 44, 5], -13),
      m("t3", 49, "Lotus", "Red", [13, 6], "Killjoy", [20, 9, 9], [17, 38, 1], 17),
      m("t4", 75, "Split", "Blue", [13, 10], "Omen", [19, 14, 8], [14, 40, 2], 16),
    ],
  },
  {
    name: "Αθηνά",
    tag: "GR7",
    region: "eu",
    level: 58,
    rank: { tier: 11, rr: 10, lastChange: -12 },
    matches: [
      m("a1", 26, "Icebox", "Blue", [10, 13], "Sage", [9, 14, 12], [4, 30, 4], -12),
      m("a2", 48, "Breeze", "Red", [13, 9], "Sage", [13, 11, 10], [6, 28, 2], 17),
      m("a3", 73, "Ascent", "Red", [13, 11], "Skye", [14, 12, 9], [5, 31, 4], 18),
    ],
  },
  {
    name: "Fresh Start",
    tag: "NEW",
    region: "eu",
    level: 12,
    rank: null,
    matches: [
      m("f1", 2, "Haven", "Red", [13, 11], "Phoenix", [12, 14, 3], [3, 30, 5], null, "Unrated"),
      m("f2", 30, "Bind", "Blue", [9, 13], "Phoenix", [8, 15, 2], [2, 26, 6], null, "Unrated"),
    ],
  },
];

/** A stable UUID-shaped id for a seed string, so every run serves the same ids. */
export function seededUuid(seed: string): string {
  const hex = createHash("sha256").update(seed).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export function puuidOf(p: { name: string; tag: string }): string {
  return seededUuid(`puuid:${p.name}#${p.tag}`);
}

export function matchIdOf(p: { name: string; tag: string }, match: { key: string }): string {
  return seededUuid(`match:${p.name}#${p.tag}:${match.key}`);
}
