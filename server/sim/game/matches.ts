import { createHash } from "node:crypto";
import { errorJson, okJson, type PlayerRequest } from "./answers.ts";
import { cardAssets, MEDIA, patchedDate, SEASON_ID, tierName } from "./fields.ts";
import { matchIdOf, puuidOf, type SeedMatch, type SeedPlayer, seededUuid } from "./players.ts";

/**
 * The matches resource: `GET /valorant/v3/matches/{region}/{name}/{tag}`, newest first. The other nine
 * players of a match are made up deterministically from its id. Round-by-round data (`rounds`,
 * `kills`) is sent empty: cuebot never reads it and it is the bulk of a real payload.
 */

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

/** `mode` (or the older `filter`) and `size` (1–10, default 5) checked as the provider does. */
export function matchesAnswer({ player, url, headers, rightShard, anchor }: PlayerRequest): Response {
  const mode = url.searchParams.get("mode") ?? url.searchParams.get("filter");
  if (mode !== null && !MODES.has(mode.toLowerCase())) return errorJson(400, 27, "Invalid mode", headers);
  const rawSize = url.searchParams.get("size");
  const size = rawSize === null ? 5 : Number(rawSize);
  if (!Number.isInteger(size)) return errorJson(400, 30, "size must be a number", headers);
  if (size < 1) return errorJson(400, 31, "size must be greater than 0", headers);
  if (size > 10) return errorJson(400, 30, "size must be 10 or less", headers);
  if (!rightShard) return okJson({ data: [] }, headers);
  const at = anchor();
  const listed = player.matches
    .filter((x) => mode === null || x.mode.toLowerCase() === mode.toLowerCase())
    .slice(0, size)
    .map((x) => matchJson(player, x, Math.floor(at / 1000 - x.hoursAgo * 3600)));
  return okJson({ data: listed }, headers);
}

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
