import { errorJson, okJson, type PlayerRequest } from "./answers.ts";
import { CURRENT_ACT, currentElo, patchedDate, SEASON_ID, tierImages, tierName } from "./fields.ts";
import { matchIdOf, puuidOf, type SeedPlayer, seededUuid } from "./players.ts";

/** The rank resources: `GET /valorant/v2/mmr/…` and `GET /valorant/v1/mmr-history/…`. */

/** MMR v2: 404 code 25 for an unranked player or one asked on another shard. */
export function mmrAnswer({ player, rightShard, headers }: PlayerRequest): Response {
  if (!player.rank || !rightShard) return errorJson(404, 25, "No MMR data found for user", headers);
  return okJson({ data: mmrJson(player, player.rank) }, headers);
}

/** MMR history v1: an empty list (not a 404) for an unranked player or another shard. */
export function mmrHistoryAnswer({ player, rightShard, headers, anchor }: PlayerRequest): Response {
  return okJson(
    {
      name: player.name,
      tag: player.tag,
      data: player.rank && rightShard ? historyJson(player, player.rank, anchor()) : [],
    },
    headers,
  );
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
