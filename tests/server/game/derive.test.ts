import { describe, expect, test } from "bun:test";
import type { ProviderMatch, ProviderMmrHistoryEntry } from "../../../server/game/client.ts";
import {
  competitiveMatchesOf,
  favoriteAgent,
  hsPercent,
  lastMatchSummary,
  percentage,
  playerMatch,
  rankSummary,
  statsSummary,
  todayHoldsUntil,
  todaySummary,
} from "../../../server/game/derive.ts";

const ME = "me-puuid";
const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const hoursAgo = (h: number) => Math.floor(NOW / 1000 - h * 3600);

interface MatchSpec {
  id?: string;
  team?: "red" | "blue";
  own?: number;
  other?: number;
  ownWon?: boolean | null;
  otherWon?: boolean | null;
  agent?: string;
  shots?: [number, number, number];
  mode?: string;
  startedHoursAgo?: number;
}

let nextId = 0;
function match(spec: MatchSpec = {}): ProviderMatch {
  const team = spec.team ?? "blue";
  const otherTeam = team === "red" ? "blue" : "red";
  const own = spec.own ?? 13;
  const other = spec.other ?? 7;
  const [headshots, bodyshots, legshots] = spec.shots ?? [10, 30, 0];
  const me = {
    puuid: ME,
    name: "Me",
    tag: "TAG",
    team,
    character: spec.agent ?? "Jett",
    kills: 20,
    deaths: 10,
    assists: 5,
    headshots,
    bodyshots,
    legshots,
  };
  const foe = { ...me, puuid: "foe", name: "Foe", team: otherTeam, character: "Sage" } as const;
  return {
    matchid: spec.id ?? `m${nextId++}`,
    map: "Ascent",
    mode: spec.mode ?? "Competitive",
    game_start: hoursAgo(spec.startedHoursAgo ?? 1),
    region: "eu",
    players: [foe, me],
    teams: {
      [team]: { has_won: spec.ownWon === undefined ? own > other : spec.ownWon, rounds_won: own },
      [otherTeam]: { has_won: spec.otherWon === undefined ? other > own : spec.otherWon, rounds_won: other },
    } as ProviderMatch["teams"],
  };
}

describe("percentages", () => {
  test("round to one decimal without float drift", () => {
    expect(percentage(2, 3)).toBe(66.7);
    expect(percentage(1, 3)).toBe(33.3);
    expect(percentage(5, 9)).toBe(55.6);
    expect(percentage(3, 4)).toBe(75);
    expect(percentage(0, 0)).toBe(0);
  });

  test("HS% sums head, body and leg hits over all matches before dividing", () => {
    // Averaging the per-match 50% and 10.2% would say 30.1%; summed it is 11 of 100 hits.
    expect(
      hsPercent([
        { headshots: 1, bodyshots: 1, legshots: 0 },
        { headshots: 10, bodyshots: 80, legshots: 8 },
      ]),
    ).toBe(11);
    expect(hsPercent([{ headshots: 20, bodyshots: 55, legshots: 5 }])).toBe(25);
    expect(hsPercent([{ headshots: 0, bodyshots: 0, legshots: 0 }])).toBe(0);
  });
});

describe("the requested player's side of a match", () => {
  test("a player on the red team wins when red wins, whatever blue says", () => {
    const seen = playerMatch(match({ team: "red", own: 13, other: 9 }), ME);
    expect(seen?.team).toBe("red");
    expect(seen?.result).toBe("win");
    expect(seen?.roundsWon).toBe(13);
    expect(seen?.roundsLost).toBe(9);
  });

  test("a blue loss is a loss", () => {
    expect(playerMatch(match({ team: "blue", own: 10, other: 13 }), ME)?.result).toBe("loss");
  });

  test("equal rounds with neither team winning is a draw", () => {
    const seen = playerMatch(match({ own: 15, other: 15, ownWon: false, otherWon: false }), ME);
    expect(seen?.result).toBe("draw");
  });

  test("unknown has_won falls back to the rounds", () => {
    expect(playerMatch(match({ own: 13, other: 5, ownWon: null, otherWon: null }), ME)?.result).toBe("win");
  });

  test("a match without the player is not usable", () => {
    expect(playerMatch(match(), "someone-else")).toBeNull();
  });

  test("only competitive matches with the player count", () => {
    const list = [match({ mode: "Unrated" }), match({ id: "c1" }), match({ mode: "Deathmatch" })];
    expect(competitiveMatchesOf(list, ME).map((m) => m.match.matchid)).toEqual(["c1"]);
  });
});

describe("rank", () => {
  const mmr = {
    currenttier: 13,
    currenttierpatched: "Gold 2",
    ranking_in_tier: 45,
    mmr_change_to_last_game: 18,
    elo: 1045,
    image: "https://img/13.png",
  };

  test("maps the provider's current data", () => {
    expect(rankSummary(mmr)).toEqual({
      current_tier_patched: "Gold 2",
      ranking_in_tier: 45,
      mmr_change_to_last_game: 18,
      elo: 1045,
      rank_image: "https://img/13.png",
    });
  });

  test("computes elo from tier and RR when the provider leaves it out", () => {
    expect(rankSummary({ ...mmr, elo: null })?.elo).toBe(1045);
  });

  test("Unrated or a missing tier name is no rank", () => {
    expect(rankSummary({ ...mmr, currenttier: 0, currenttierpatched: "Unrated", elo: -300 })).toBeNull();
    expect(rankSummary({ ...mmr, currenttierpatched: null })).toBeNull();
  });
});

describe("today (rolling 24 hours)", () => {
  const entry = (id: string, change: number, h: number): ProviderMmrHistoryEntry => ({
    match_id: id,
    mmr_change_to_last_game: change,
    elo: 1000,
    date_raw: hoursAgo(h),
  });

  test("counts the games of the last 24 h with results from the matches and RR from the history", () => {
    const matches = competitiveMatchesOf(
      [
        match({ id: "a", own: 13, other: 9, startedHoursAgo: 1 }),
        // A draw that still moved RR: the sign alone would call it a win.
        match({ id: "b", own: 15, other: 15, ownWon: false, otherWon: false, startedHoursAgo: 4 }),
        match({ id: "c", own: 10, other: 13, startedHoursAgo: 6 }),
        match({ id: "old", own: 13, other: 2, startedHoursAgo: 30 }),
      ],
      ME,
    );
    const history = [entry("a", 18, 1), entry("b", 2, 4), entry("c", -16, 6), entry("old", 20, 30)];
    expect(todaySummary(history, matches, NOW)).toEqual({
      matches_played: 3,
      wins: 1,
      losses: 1,
      draws: 1,
      rr_change: 4,
      winrate: 33.3,
    });
  });

  test("a game missing from the match list falls back to the RR sign", () => {
    const history = [entry("x", -14, 2), entry("y", 0, 3)];
    expect(todaySummary(history, [], NOW)).toMatchObject({
      matches_played: 2,
      losses: 1,
      draws: 1,
      rr_change: -14,
    });
  });

  test("a match not yet in the history still counts, with 0 RR", () => {
    const matches = competitiveMatchesOf([match({ id: "fresh", startedHoursAgo: 0.1 })], ME);
    expect(todaySummary([], matches, NOW)).toMatchObject({ matches_played: 1, wins: 1, rr_change: 0 });
  });

  test("the window is exactly 24 hours", () => {
    expect(todaySummary([entry("in", 5, 23.99)], [], NOW).matches_played).toBe(1);
    expect(todaySummary([entry("out", 5, 24.01)], [], NOW).matches_played).toBe(0);
  });

  test("the summary holds until the oldest game in the window leaves it, whichever list dates it", () => {
    const matches = competitiveMatchesOf(
      [match({ id: "a", startedHoursAgo: 1 }), match({ id: "b", startedHoursAgo: 20 })],
      ME,
    );
    const history = [entry("a", 18, 1), entry("c", -14, 22), entry("old", 20, 30)];
    const until = todayHoldsUntil(history, matches, NOW);
    expect(until).toBe(NOW + 2 * 3600_000);
    expect(todaySummary(history, matches, until)).toEqual(todaySummary(history, matches, NOW));
    expect(todaySummary(history, matches, until + 1).matches_played).toBe(2);
    expect(todayHoldsUntil(history, [], until + 1)).toBe(NOW + 23 * 3600_000);
    expect(todayHoldsUntil([], [], NOW)).toBe(Number.POSITIVE_INFINITY);
  });

  test("no games gives zeros", () => {
    expect(todaySummary([], [], NOW)).toEqual({
      matches_played: 0,
      wins: 0,
      losses: 0,
      draws: 0,
      rr_change: 0,
      winrate: 0,
    });
  });
});

describe("stats over the last 10 competitive matches", () => {
  test("winrate counts draws as played; HS% is summed", () => {
    const matches = competitiveMatchesOf(
      [
        match({ own: 13, other: 9, agent: "Jett", shots: [20, 55, 5] }),
        match({ own: 15, other: 15, ownWon: false, otherWon: false, agent: "Sova", shots: [12, 60, 8] }),
        match({ own: 10, other: 13, agent: "Jett", shots: [10, 45, 5] }),
        match({ own: 13, other: 11, agent: "Reyna", shots: [18, 50, 2] }),
      ],
      ME,
    );
    expect(statsSummary(matches)).toEqual({
      matches_analyzed: 4,
      wins: 2,
      losses: 1,
      draws: 1,
      winrate: 50,
      favorite_agent: "Jett",
      hs_percent: 20.7,
    });
  });

  test("at most 10 matches are analysed", () => {
    const matches = competitiveMatchesOf(
      Array.from({ length: 12 }, () => match()),
      ME,
    );
    expect(statsSummary(matches)?.matches_analyzed).toBe(10);
  });

  test("no matches is no stats", () => {
    expect(statsSummary([])).toBeNull();
  });
});

describe("favourite agent", () => {
  test("the most played agent", () => {
    expect(favoriteAgent(["Sova", "Jett", "Jett", "Reyna"])).toBe("Jett");
  });

  test("a tie goes to the agent played most recently (the list is newest first)", () => {
    expect(favoriteAgent(["Omen", "Killjoy", "Killjoy", "Omen"])).toBe("Omen");
    expect(favoriteAgent(["Killjoy", "Omen", "Omen", "Killjoy"])).toBe("Killjoy");
  });

  test("nothing played is no favourite", () => {
    expect(favoriteAgent([])).toBeNull();
  });
});

describe("last match", () => {
  test("reports both teams and the player's own side, found by puuid", () => {
    const seen = playerMatch(match({ team: "red", own: 13, other: 9, shots: [20, 55, 5] }), ME)!;
    const last = lastMatchSummary(seen);
    expect(last.teams).toEqual({
      red: { has_won: true, rounds_won: 13 },
      blue: { has_won: false, rounds_won: 9 },
    });
    expect(last.derived).toMatchObject({ team: "red", result: "win", hs_percent: 25 });
    expect(last.players.all_players.map((p) => p.name)).toEqual(["Foe", "Me"]);
    expect(last.players.all_players[1]).toEqual({
      name: "Me",
      tag: "TAG",
      team: "red",
      character: "Jett",
      stats: { kills: 20, deaths: 10, assists: 5 },
    });
  });
});
