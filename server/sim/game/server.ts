import { createHash } from "node:crypto";
import { type Clock, systemClock } from "../core/clock.ts";

/**
 * A local stand-in for the game-statistics provider (reference/game-provider.md), served over real
 * HTTP on loopback so the real client is exercised by tests and by `serve --demo`. It speaks the
 * provider's routes, field names and quirks: account v1, MMR v2, MMR history v1 and matches v3; a
 * required key (401 missing / 403 unknown); `x-ratelimit-*` headers and a per-minute limit; error
 * bodies with a top-level `status` and `errors[]`; unix-second dates relative to an injectable clock.
 *
 * The seeded players cover the cases chat commands get wrong: a last match on the red team, a
 * 15–15 draw, a non-competitive match, an unloadable (`is_available: false`) list item, a 0-RR loss,
 * an unranked account, names with a space and in Korean and Greek, and games both inside and outside
 * the last 24 hours. Round-by-round data (`rounds`, `kills`) is sent empty: cuebot never reads it
 * and it is the bulk of a real payload.
 */

export const DEMO_GAME_API_KEY = "HDEV-00000000-0000-4000-8000-00000000c0eb";

export type SimRoute = "account" | "mmr" | "mmrHistory" | "matches";

/** Failures the simulator can be told to answer with, as the provider does when Riot has trouble. */
export type SimFailure = 403 | 408 | 429 | 500 | 503;

export interface GameSimulatorKnobs {
  /** When set, every authenticated request to a known route fails with this status. */
  failWith: SimFailure | null;
  /** Delay before every answer, in ms of real time. */
  latencyMs: number;
}

export interface GameSimulatorOptions {
  clock?: Clock;
  /** The one key the simulator accepts (header `Authorization` or query `api_key`). */
  apiKey?: string;
  hostname?: string;
  port?: number;
  /** Requests per minute per key before 429, like the provider's basic keys. */
  rateLimitPerMinute?: number;
  /**
   * "start": match times are fixed relative to the clock when the simulator started, so moving a
   * test clock ages them. "request": relative to each request's time, so a long-running demo always
   * has games "today".
   */
  anchor?: "start" | "request";
}

export interface GameSimulator {
  url: string;
  apiKey: string;
  knobs: GameSimulatorKnobs;
  /** Requests received per route, whatever the answer. */
  calls: Record<SimRoute, number>;
  totalCalls(): number;
  resetCalls(): void;
  players: readonly SeedPlayer[];
  stop(): Promise<void>;
}

// ---- seed data ----

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
 * The seeded players. Their expected answers are listed in tests/api/game.test.ts; every number
 * here is chosen so those answers can be checked by hand.
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

// ---- deterministic shapes ----

const TIER_NAMES = [
  "Unrated",
  "Unknown 1",
  "Unknown 2",
  ...["Iron", "Bronze", "Silver", "Gold", "Platinum", "Diamond", "Ascendant", "Immortal"].flatMap((t) => [
    `${t} 1`,
    `${t} 2`,
    `${t} 3`,
  ]),
  "Radiant",
];
const TIER_SET = "03621f52-342b-cf4e-4f86-9350a49c6d04";
const SEASON_ID = "34093c29-4306-43de-452f-3f944bde22be";
const CURRENT_ACT = "e9a3";
const MEDIA = "https://media.valorant-api.com";
const OTHER_NAMES = [
  "Mika",
  "Rook",
  "Tallis",
  "Vex",
  "Juniper",
  "Okapi",
  "Brindle",
  "Sorrel",
  "Quill",
  "Nyx",
  "Calder",
  "Pell",
  "Wren",
  "Harrow",
  "Ysolde",
  "Bram",
];
const OTHER_AGENTS = [
  "Omen",
  "Killjoy",
  "Sage",
  "Raze",
  "Breach",
  "Skye",
  "Cypher",
  "Viper",
  "Phoenix",
  "Fade",
  "Gekko",
  "Chamber",
  "KAY/O",
  "Astra",
];
const CLUSTERS: Record<string, string> = { eu: "Frankfurt 1", na: "US East", kr: "Seoul", ap: "Tokyo" };

export function tierName(tier: number): string {
  return TIER_NAMES[tier] ?? "Unrated";
}

/** A stable UUID-shaped id for a seed string, so every run serves the same ids. */
export function seededUuid(seed: string): string {
  const hex = createHash("sha256").update(seed).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** mulberry32: a tiny deterministic generator for the other nine players' numbers. */
function random(seed: string): () => number {
  let a = Number.parseInt(createHash("sha256").update(seed).digest("hex").slice(0, 8), 16);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: readonly T[], rand: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function between(rand: () => number, min: number, max: number): number {
  return min + Math.floor(rand() * (max - min + 1));
}

export function puuidOf(p: { name: string; tag: string }): string {
  return seededUuid(`puuid:${p.name}#${p.tag}`);
}

export function matchIdOf(p: { name: string; tag: string }, match: { key: string }): string {
  return seededUuid(`match:${p.name}#${p.tag}:${match.key}`);
}

function tierImages(tier: number) {
  const base = `${MEDIA}/competitivetiers/${TIER_SET}/${tier}`;
  return {
    small: `${base}/smallicon.png`,
    large: `${base}/largeicon.png`,
    triangle_down: `${base}/ranktriangledownicon.png`,
    triangle_up: `${base}/ranktriangleupicon.png`,
  };
}

function cardAssets(cardId: string) {
  const base = `${MEDIA}/playercards/${cardId}`;
  return { small: `${base}/smallart.png`, large: `${base}/largeart.png`, wide: `${base}/wideart.png` };
}

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** "Friday, March 24, 2023 8:53 PM", shifted by `offsetHours` (the history's text is server time, UTC+1). */
function patchedDate(unixSeconds: number, offsetHours = 0): string {
  const d = new Date((unixSeconds + offsetHours * 3600) * 1000);
  const hours = d.getUTCHours();
  const h12 = hours % 12 === 0 ? 12 : hours % 12;
  const minutes = String(d.getUTCMinutes()).padStart(2, "0");
  return (
    `${WEEKDAYS[d.getUTCDay()]}, ${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()} ` +
    `${h12}:${minutes} ${hours < 12 ? "AM" : "PM"}`
  );
}

function relativeText(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return "Now";
  if (minutes === 1) return "a minute ago";
  if (minutes < 60) return `${minutes} minutes ago`;
  const hours = Math.round(minutes / 60);
  return hours === 1 ? "an hour ago" : `${hours} hours ago`;
}

function currentElo(rank: { tier: number; rr: number }): number {
  return (rank.tier - 3) * 100 + rank.rr;
}

interface PlayerStatsInput {
  puuid: string;
  name: string;
  tag: string;
  team: "Red" | "Blue";
  level: number;
  character: string;
  tier: number;
  kills: number;
  deaths: number;
  assists: number;
  headshots: number;
  bodyshots: number;
  legshots: number;
  rounds: number;
}

function playerJson(p: PlayerStatsInput) {
  const card = seededUuid(`card:${p.puuid}`);
  const agent = seededUuid(`agent:${p.character}`);
  const agentBase = `${MEDIA}/agents/${agent}`;
  const minutes = 25 + (p.rounds % 20);
  const spent = p.rounds * 3100;
  return {
    puuid: p.puuid,
    name: p.name,
    tag: p.tag,
    team: p.team,
    level: p.level,
    character: p.character,
    currenttier: p.tier,
    currenttier_patched: tierName(p.tier),
    player_card: card,
    player_title: seededUuid(`title:${p.puuid}`),
    party_id: seededUuid(`party:${p.puuid}`),
    session_playtime: { minutes, seconds: minutes * 60, milliseconds: minutes * 60_000 },
    behavior: { afk_rounds: 0, friendly_fire: { incoming: 0, outgoing: 0 }, rounds_in_spawn: 0 },
    platform: { type: "PC", os: { name: "Windows", version: "10.0.22631.1.256.64bit" } },
    ability_casts: { c_cast: p.rounds, q_cast: Math.round(p.rounds * 0.7), e_cast: p.rounds, x_cast: 2 },
    assets: {
      card: cardAssets(card),
      agent: {
        small: `${agentBase}/displayicon.png`,
        bust: `${agentBase}/bustportrait.png`,
        full: `${agentBase}/fullportrait.png`,
        killfeed: `${agentBase}/killfeedportrait.png`,
      },
    },
    stats: {
      score: p.kills * 200 + p.assists * 50 + p.rounds * 40,
      kills: p.kills,
      deaths: p.deaths,
      assists: p.assists,
      bodyshots: p.bodyshots,
      headshots: p.headshots,
      legshots: p.legshots,
    },
    economy: {
      spent: { overall: spent, average: Math.round(spent / Math.max(1, p.rounds)) },
      loadout_value: { overall: spent + 9000, average: Math.round((spent + 9000) / Math.max(1, p.rounds)) },
    },
    damage_made: p.kills * 150 + p.assists * 40,
    damage_received: p.deaths * 150,
  };
}

function matchJson(player: SeedPlayer, match: SeedMatch, startedAt: number) {
  const matchid = matchIdOf(player, match);
  if (match.unavailable) {
    return {
      is_available: false,
      metadata: null,
      players: null,
      observers: null,
      coaches: null,
      teams: null,
      rounds: null,
      kills: null,
    };
  }
  const rand = random(matchid);
  const rounds = match.roundsWon + match.roundsLost;
  const tier = player.rank?.tier ?? 0;
  const other = match.team === "Red" ? "Blue" : "Red";
  const me = playerJson({
    puuid: puuidOf(player),
    name: player.name,
    tag: player.tag,
    team: match.team,
    level: player.level,
    character: match.agent,
    tier,
    kills: match.kills,
    deaths: match.deaths,
    assists: match.assists,
    headshots: match.headshots,
    bodyshots: match.bodyshots,
    legshots: match.legshots,
    rounds,
  });
  const names = shuffle(OTHER_NAMES, rand);
  const agents = shuffle(
    OTHER_AGENTS.filter((a) => a !== match.agent),
    rand,
  );
  const others = Array.from({ length: 9 }, (_, i) => {
    const name = names[i] ?? `Player${i}`;
    const tag = String(between(rand, 100, 99999));
    return playerJson({
      puuid: seededUuid(`puuid:${name}#${tag}:${matchid}`),
      name,
      tag,
      team: i < 4 ? match.team : other,
      level: between(rand, 20, 400),
      character: agents[i % agents.length] ?? "Sage",
      tier: tier === 0 ? 0 : Math.max(3, Math.min(27, tier + between(rand, -1, 1))),
      kills: between(rand, 4, 24),
      deaths: between(rand, 6, 20),
      assists: between(rand, 1, 12),
      headshots: between(rand, 3, 20),
      bodyshots: between(rand, 25, 60),
      legshots: between(rand, 0, 8),
      rounds,
    });
  });
  const all = [me, ...others];
  const won = match.roundsWon > match.roundsLost;
  const lost = match.roundsWon < match.roundsLost;
  const side = (mine: boolean) => ({
    has_won: mine ? won : lost,
    rounds_won: mine ? match.roundsWon : match.roundsLost,
    rounds_lost: mine ? match.roundsLost : match.roundsWon,
    roster: null,
  });
  const isRed = match.team === "Red";
  return {
    is_available: true,
    metadata: {
      map: match.map,
      game_version: "release-09.10-shipping-14-2937271",
      game_length: rounds * 100,
      game_start: startedAt,
      game_start_patched: patchedDate(startedAt),
      rounds_played: rounds,
      mode: match.mode,
      mode_id: match.mode.toLowerCase(),
      queue: "Standard",
      season_id: SEASON_ID,
      platform: "PC",
      matchid,
      premier_info: { tournament_id: null, matchup_id: null },
      region: player.region,
      cluster: CLUSTERS[player.region] ?? "Frankfurt 1",
    },
    players: {
      all_players: all,
      red: all.filter((p) => p.team === "Red"),
      blue: all.filter((p) => p.team === "Blue"),
    },
    observers: [],
    coaches: [],
    teams: { red: side(isRed), blue: side(!isRed) },
    rounds: [],
    kills: [],
  };
}

function accountJson(player: SeedPlayer, now: number) {
  const cardId = seededUuid(`card:${puuidOf(player)}`);
  const updated = now - 5 * 60_000;
  return {
    puuid: puuidOf(player),
    region: player.region,
    account_level: player.level,
    name: player.name,
    tag: player.tag,
    card: { ...cardAssets(cardId), id: cardId },
    last_update: relativeText(now - updated),
    last_update_raw: Math.floor(updated / 1000),
  };
}

function mmrJson(player: SeedPlayer, rank: { tier: number; rr: number; lastChange: number }) {
  const competitive = player.matches.filter((x) => x.mode === "Competitive");
  const wins = competitive.filter((x) => x.roundsWon > x.roundsLost).length;
  const bySeason: Record<string, object> = {};
  for (let episode = 1; episode <= 9; episode++) {
    for (let act = 1; act <= 3; act++) {
      const id = `e${episode}a${act}`;
      bySeason[id] =
        id === CURRENT_ACT
          ? {
              wins,
              number_of_games: competitive.length,
              final_rank: rank.tier,
              final_rank_patched: tierName(rank.tier),
              act_rank_wins: [{ patched_tier: tierName(rank.tier), tier: rank.tier }],
              old: false,
            }
          : { error: "No data Available" };
    }
  }
  return {
    name: player.name,
    tag: player.tag,
    puuid: puuidOf(player),
    current_data: {
      currenttier: rank.tier,
      currenttierpatched: tierName(rank.tier),
      images: tierImages(rank.tier),
      ranking_in_tier: rank.rr,
      mmr_change_to_last_game: rank.lastChange,
      elo: currentElo(rank),
      games_needed_for_rating: 0,
      old: false,
    },
    highest_rank: { old: false, tier: rank.tier, patched_tier: tierName(rank.tier), season: CURRENT_ACT },
    by_season: bySeason,
  };
}

/** Competitive games only, newest first, with the tier and RR after each game walked back from now. */
function historyJson(player: SeedPlayer, rank: { tier: number; rr: number }, anchorMs: number) {
  let elo = currentElo(rank);
  const entries = [];
  for (const match of player.matches) {
    if (match.mode !== "Competitive") continue;
    const tier = Math.floor(elo / 100) + 3;
    const dateRaw = Math.floor(anchorMs / 1000 - match.hoursAgo * 3600);
    entries.push({
      currenttier: tier,
      currenttierpatched: tierName(tier),
      images: tierImages(tier),
      match_id: matchIdOf(player, match),
      map: { name: match.map, id: seededUuid(`map:${match.map}`) },
      season_id: SEASON_ID,
      ranking_in_tier: elo - (tier - 3) * 100,
      mmr_change_to_last_game: match.rr ?? 0,
      elo,
      date: patchedDate(dateRaw, 1),
      date_raw: dateRaw,
    });
    elo -= match.rr ?? 0;
  }
  return entries.slice(0, 20);
}

// ---- HTTP ----

const VALID_REGIONS = new Set(["eu", "na", "ap", "kr", "latam", "br"]);
const MODES = new Set([
  "competitive",
  "custom",
  "deathmatch",
  "escalation",
  "teamdeathmatch",
  "newmap",
  "replication",
  "snowballfight",
  "spikerush",
  "swiftplay",
  "unrated",
]);

const FAILURE_MESSAGES: Record<SimFailure, { code: number; message: string }> = {
  403: { code: 0, message: "Forbidden to connect to Riot (maintenance)" },
  408: {
    code: 0,
    message: "A needed fetch request timed out three times, request will be terminated, please try again",
  },
  429: { code: 0, message: "Rate Limited" },
  500: { code: 1, message: "Internal error" },
  503: { code: 0, message: "Riot Origin Server is not reachable" },
};

/** Both error shapes at once: a top-level `status` and v4 `errors[]` entries (reference §1.4). */
function errorJson(status: number, code: number, message: string, headers: Record<string, string> = {}) {
  const entry: Record<string, unknown> = { code, message, status, details: null };
  if (status === 429) entry.global = false;
  return Response.json({ status, errors: [entry] }, { status, headers });
}

/** The provider converts br and latam to na: they share a shard. */
function shard(region: string): string {
  return region === "br" || region === "latam" ? "na" : region;
}

function sameId(a: string, b: string): boolean {
  return a.normalize("NFC").toLowerCase() === b.normalize("NFC").toLowerCase();
}

export function startGameSimulator(options: GameSimulatorOptions = {}): GameSimulator {
  const clock = options.clock ?? systemClock;
  const apiKey = options.apiKey ?? DEMO_GAME_API_KEY;
  const limit = options.rateLimitPerMinute ?? 30;
  const startedAt = clock.now();
  const anchorFor = () => (options.anchor === "request" ? clock.now() : startedAt);
  const knobs: GameSimulatorKnobs = { failWith: null, latencyMs: 0 };
  const calls: Record<SimRoute, number> = { account: 0, mmr: 0, mmrHistory: 0, matches: 0 };
  let rateWindow = { start: clock.now(), used: 0 };

  const find = (name: string, tag: string) =>
    SEED_PLAYERS.find((p) => sameId(p.name, name) && sameId(p.tag, tag)) ?? null;

  const rateHeaders = (remaining: number, resetS: number) => ({
    "x-ratelimit-limit": String(limit),
    "x-ratelimit-remaining": String(Math.max(0, remaining)),
    "x-ratelimit-reset": String(resetS),
  });

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    let segments: string[];
    try {
      segments = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
    } catch {
      return errorJson(400, 0, "Invalid URL encoding");
    }
    const route = routeOf(segments);
    if (!route) return errorJson(404, 0, "Route not found");
    calls[route.name]++;
    if (knobs.latencyMs > 0) await Bun.sleep(knobs.latencyMs);

    const presented = request.headers.get("authorization") ?? url.searchParams.get("api_key");
    if (!presented)
      return errorJson(401, 0, "Missing API Key, get one at https://api.henrikdev.xyz/dashboard/");
    if (presented !== apiKey) return errorJson(403, 0, "Invalid API Key");

    const now = clock.now();
    if (now - rateWindow.start >= 60_000) rateWindow = { start: now, used: 0 };
    const resetS = Math.max(1, Math.ceil((rateWindow.start + 60_000 - now) / 1000));
    if (knobs.failWith === 429 || rateWindow.used >= limit) {
      const { code, message } = FAILURE_MESSAGES[429];
      return errorJson(429, code, message, rateHeaders(0, resetS));
    }
    rateWindow.used++;
    const headers = rateHeaders(limit - rateWindow.used, resetS);
    if (knobs.failWith) {
      const { code, message } = FAILURE_MESSAGES[knobs.failWith];
      return errorJson(knobs.failWith, code, message, headers);
    }
    return answer(route, url, headers);
  }

  function answer(route: Route, url: URL, headers: Record<string, string>): Response {
    if (route.region !== null && !VALID_REGIONS.has(route.region)) {
      return errorJson(400, 6, "Invalid region", headers);
    }
    const player = find(route.gameName, route.tag);
    if (!player) return errorJson(404, 22, "Account not found", headers);
    const now = clock.now();
    const ok = (body: object) => Response.json({ status: 200, ...body }, { headers });
    const rightShard = route.region === null || shard(route.region) === shard(player.region);

    switch (route.name) {
      case "account":
        return ok({ data: accountJson(player, now) });
      case "mmr":
        if (!player.rank || !rightShard) return errorJson(404, 25, "No MMR data found for user", headers);
        return ok({ data: mmrJson(player, player.rank) });
      case "mmrHistory":
        return ok({
          name: player.name,
          tag: player.tag,
          data: player.rank && rightShard ? historyJson(player, player.rank, anchorFor()) : [],
        });
      case "matches": {
        const mode = url.searchParams.get("mode") ?? url.searchParams.get("filter");
        if (mode !== null && !MODES.has(mode.toLowerCase()))
          return errorJson(400, 27, "Invalid mode", headers);
        const rawSize = url.searchParams.get("size");
        const size = rawSize === null ? 5 : Number(rawSize);
        if (!Number.isInteger(size)) return errorJson(400, 30, "size must be a number", headers);
        if (size < 1) return errorJson(400, 31, "size must be greater than 0", headers);
        if (size > 10) return errorJson(400, 30, "size must be 10 or less", headers);
        if (!rightShard) return ok({ data: [] });
        const anchor = anchorFor();
        const listed = player.matches
          .filter((x) => mode === null || x.mode.toLowerCase() === mode.toLowerCase())
          .slice(0, size)
          .map((x) => matchJson(player, x, Math.floor(anchor / 1000 - x.hoursAgo * 3600)));
        return ok({ data: listed });
      }
    }
  }

  const server = Bun.serve({
    hostname: options.hostname ?? "127.0.0.1",
    port: options.port ?? 0,
    fetch: handle,
  });

  return {
    url: `http://${server.hostname}:${server.port}`,
    apiKey,
    knobs,
    calls,
    totalCalls: () => calls.account + calls.mmr + calls.mmrHistory + calls.matches,
    resetCalls() {
      for (const key of Object.keys(calls) as SimRoute[]) calls[key] = 0;
    },
    players: SEED_PLAYERS,
    async stop() {
      await server.stop(true);
    },
  };
}

interface Route {
  name: SimRoute;
  region: string | null;
  gameName: string;
  tag: string;
}

/** The four provider routes cuebot calls; anything else is the provider's generic 404. */
function routeOf(segments: string[]): Route | null {
  const [root, version, kind, ...rest] = segments;
  if (root !== "valorant") return null;
  if (version === "v1" && kind === "account" && rest.length === 2) {
    return { name: "account", region: null, gameName: rest[0]!, tag: rest[1]! };
  }
  if (rest.length !== 3) return null;
  const [region, name, tag] = rest as [string, string, string];
  const lowerRegion = region.toLowerCase();
  if (version === "v2" && kind === "mmr") return { name: "mmr", region: lowerRegion, gameName: name, tag };
  if (version === "v1" && kind === "mmr-history")
    return { name: "mmrHistory", region: lowerRegion, gameName: name, tag };
  if (version === "v3" && kind === "matches")
    return { name: "matches", region: lowerRegion, gameName: name, tag };
  return null;
}

/** `bun server/game/sim.ts`: run the simulator alone (match times follow the real clock). */
if (import.meta.main) {
  const sim = startGameSimulator({ anchor: "request", port: Number(process.env.PORT ?? 0) });
  console.log(`game provider simulator on ${sim.url} — key: ${sim.apiKey}`);
  console.log(`players: ${SEED_PLAYERS.map((p) => `${p.name}#${p.tag} (${p.region})`).join(", ")}`);
}
