import type {
  ProviderMatch,
  ProviderMatchPlayer,
  ProviderMmr,
  ProviderMmrHistoryEntry,
  TeamSide,
} from "./client.ts";

/**
 * Pure derivations from provider data (reference/game-provider.md §3). No I/O: the service fetches,
 * these functions decide what the numbers mean.
 */

export type MatchResult = "win" | "loss" | "draw";

/** The rolling window of the today endpoint. */
export const TODAY_WINDOW_S = 24 * 60 * 60;

/** Rounds to one decimal the way people read percentages (66.666… → 66.7). */
export function oneDecimal(value: number): number {
  return Math.round(value * 10) / 10;
}

/** part / whole as a percentage with one decimal; 0 when there is nothing to divide by. */
export function percentage(part: number, whole: number): number {
  // Multiplying before dividing keeps 2/3 at 66.7 instead of drifting through 66.66666666666667.
  return whole > 0 ? Math.round((part * 1000) / whole) / 10 : 0;
}

export interface ShotCounts {
  headshots: number;
  bodyshots: number;
  legshots: number;
}

/**
 * Headshots / (head + body + leg hits) × 100, summed over all matches before dividing so a short
 * match does not weigh as much as a long one (reference §3.3). 0 when nothing was hit.
 */
export function hsPercent(shots: readonly ShotCounts[]): number {
  let head = 0;
  let total = 0;
  for (const s of shots) {
    head += s.headshots;
    total += s.headshots + s.bodyshots + s.legshots;
  }
  return percentage(head, total);
}

/** One competitive match seen from the requested player's side. */
export interface PlayerMatch {
  match: ProviderMatch;
  me: ProviderMatchPlayer;
  team: TeamSide;
  result: MatchResult;
  roundsWon: number;
  roundsLost: number;
}

export function isCompetitive(match: ProviderMatch): boolean {
  return match.mode.toLowerCase() === "competitive";
}

/**
 * Finds the player by puuid (names change and differ in case) and reads the result from the player's
 * own team, which is red as often as blue. A draw is neither team winning with equal rounds.
 * Returns null when the player or the result cannot be found.
 */
export function playerMatch(match: ProviderMatch, puuid: string): PlayerMatch | null {
  const me = match.players.find((p) => p.puuid === puuid);
  if (!me?.team) return null;
  const own = match.teams[me.team];
  const other = match.teams[me.team === "red" ? "blue" : "red"];
  const roundsWon = own.rounds_won;
  const roundsLost = other.rounds_won;
  let result: MatchResult;
  if (own.has_won === true) result = "win";
  else if (other.has_won === true) result = "loss";
  else if (roundsWon === null || roundsLost === null) return null;
  else result = roundsWon > roundsLost ? "win" : roundsWon < roundsLost ? "loss" : "draw";
  return { match, me, team: me.team, result, roundsWon: roundsWon ?? 0, roundsLost: roundsLost ?? 0 };
}

/** The usable competitive matches of the player, newest first (the order the provider sends). */
export function competitiveMatchesOf(matches: readonly ProviderMatch[], puuid: string): PlayerMatch[] {
  const out: PlayerMatch[] = [];
  for (const match of matches) {
    if (!isCompetitive(match)) continue;
    const seen = playerMatch(match, puuid);
    if (seen) out.push(seen);
  }
  return out;
}

export interface RankSummary {
  current_tier_patched: string;
  ranking_in_tier: number;
  mmr_change_to_last_game: number;
  elo: number;
  rank_image: string;
}

/** Tiers 0–2 are "Unrated" and two unused ids (reference §3.1): no rank to show. */
const FIRST_RANKED_TIER = 3;

/** The current rank, or null when the player has none (unrated, or the provider sent no tier). */
export function rankSummary(mmr: ProviderMmr): RankSummary | null {
  const patched = mmr.currenttierpatched?.trim();
  if (!patched || /^un(rated|ranked|known)/i.test(patched)) return null;
  if (mmr.currenttier !== null && mmr.currenttier < FIRST_RANKED_TIER) return null;
  const rr = mmr.ranking_in_tier ?? 0;
  const elo = mmr.elo ?? (mmr.currenttier !== null ? (mmr.currenttier - FIRST_RANKED_TIER) * 100 + rr : 0);
  return {
    current_tier_patched: patched,
    ranking_in_tier: rr,
    mmr_change_to_last_game: mmr.mmr_change_to_last_game ?? 0,
    elo,
    rank_image: mmr.image ?? "",
  };
}

/** The RR-sign guess for a game whose match data is missing: inexact, used only as a fallback. */
function resultFromRr(change: number): MatchResult {
  return change > 0 ? "win" : change < 0 ? "loss" : "draw";
}

export interface TodaySummary {
  matches_played: number;
  wins: number;
  losses: number;
  draws: number;
  rr_change: number;
  winrate: number;
}

/**
 * The rolling last 24 h. The rank history (competitive only, up to ~20 games) says which games
 * counted and their RR; the match list says how each game really ended, because draws and
 * loss-protection make the RR sign misleading (reference §3.4–3.5). A game only in the history falls
 * back to the RR sign; a game only in the match list counts with 0 RR.
 */
export function todaySummary(
  history: readonly ProviderMmrHistoryEntry[],
  matches: readonly PlayerMatch[],
  nowMs: number,
): TodaySummary {
  const since = nowMs / 1000 - TODAY_WINDOW_S;
  const resultOf = new Map(matches.map((m) => [m.match.matchid, m.result] as const));
  const counted = new Set<string>();
  const tally = { wins: 0, losses: 0, draws: 0 };
  let rr = 0;
  const count = (result: MatchResult) => {
    if (result === "win") tally.wins++;
    else if (result === "loss") tally.losses++;
    else tally.draws++;
  };
  for (const entry of history) {
    if (entry.date_raw < since || counted.has(entry.match_id)) continue;
    counted.add(entry.match_id);
    rr += entry.mmr_change_to_last_game;
    count(resultOf.get(entry.match_id) ?? resultFromRr(entry.mmr_change_to_last_game));
  }
  for (const m of matches) {
    if (m.match.game_start < since || counted.has(m.match.matchid)) continue;
    counted.add(m.match.matchid);
    count(m.result);
  }
  const played = counted.size;
  return { matches_played: played, ...tally, rr_change: rr, winrate: percentage(tally.wins, played) };
}

/**
 * The last moment (ms) at which todaySummary still gives what it gives at `nowMs`: the window only
 * loses games as it rolls (a game dated later was counted already), so the answer holds until the
 * oldest game inside it leaves. A game in both lists counts once, by either date: the earlier bounds it.
 */
export function todayHoldsUntil(
  history: readonly ProviderMmrHistoryEntry[],
  matches: readonly PlayerMatch[],
  nowMs: number,
): number {
  const since = nowMs / 1000 - TODAY_WINDOW_S;
  let oldest = Number.POSITIVE_INFINITY;
  for (const entry of history) if (entry.date_raw >= since) oldest = Math.min(oldest, entry.date_raw);
  for (const m of matches) if (m.match.game_start >= since) oldest = Math.min(oldest, m.match.game_start);
  return (oldest + TODAY_WINDOW_S) * 1000;
}

/**
 * The most played agent. Ties go to the agent played most recently, because that is the one a
 * viewer most likely just saw on stream. `agents` is newest first.
 */
export function favoriteAgent(agents: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const agent of agents) if (agent) counts.set(agent, (counts.get(agent) ?? 0) + 1);
  let best: string | null = null;
  let bestCount = 0;
  // Map iteration follows first appearance, i.e. most recent first, so only a strictly higher count wins.
  for (const [agent, n] of counts) {
    if (n > bestCount) {
      best = agent;
      bestCount = n;
    }
  }
  return best;
}

export interface StatsSummary {
  matches_analyzed: number;
  wins: number;
  losses: number;
  draws: number;
  /** Wins over every analysed match, draws included in the denominator. */
  winrate: number;
  favorite_agent: string;
  hs_percent: number;
}

/** Up to the last 10 competitive matches; null when there is none to analyse. */
export function statsSummary(matches: readonly PlayerMatch[]): StatsSummary | null {
  const analysed = matches.slice(0, 10);
  if (analysed.length === 0) return null;
  const wins = analysed.filter((m) => m.result === "win").length;
  const losses = analysed.filter((m) => m.result === "loss").length;
  return {
    matches_analyzed: analysed.length,
    wins,
    losses,
    draws: analysed.length - wins - losses,
    winrate: percentage(wins, analysed.length),
    favorite_agent: favoriteAgent(analysed.map((m) => m.me.character)) ?? "",
    hs_percent: hsPercent(analysed.map((m) => m.me)),
  };
}

export interface LastMatchSummary {
  metadata: { map: string; mode: string; matchid: string; region: string; game_start: number };
  players: {
    all_players: {
      name: string;
      tag: string;
      team: TeamSide | null;
      character: string;
      stats: { kills: number; deaths: number; assists: number };
    }[];
  };
  teams: Record<TeamSide, { has_won: boolean; rounds_won: number }>;
  derived: {
    team: TeamSide;
    result: MatchResult;
    hs_percent: number;
    character: string;
    kills: number;
    deaths: number;
    assists: number;
  };
}

export function lastMatchSummary(m: PlayerMatch): LastMatchSummary {
  const { match, me } = m;
  const side = (team: TeamSide) => ({
    has_won: match.teams[team].has_won === true,
    rounds_won: match.teams[team].rounds_won ?? 0,
  });
  return {
    metadata: {
      map: match.map,
      mode: match.mode,
      matchid: match.matchid,
      region: match.region,
      game_start: match.game_start,
    },
    players: {
      all_players: match.players.map((p) => ({
        name: p.name,
        tag: p.tag,
        team: p.team,
        character: p.character,
        stats: { kills: p.kills, deaths: p.deaths, assists: p.assists },
      })),
    },
    teams: { blue: side("blue"), red: side("red") },
    derived: {
      team: m.team,
      result: m.result,
      hs_percent: hsPercent([me]),
      character: me.character,
      kills: me.kills,
      deaths: me.deaths,
      assists: me.assists,
    },
  };
}
