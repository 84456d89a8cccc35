import { describe, expect, test } from "bun:test";
import type {
  LastMatchSummary,
  RankSummary,
  StatsSummary,
  TodaySummary,
} from "../../../server/game/derive.ts";
import {
  formatLastMatch,
  formatRank,
  formatStats,
  formatToday,
  signed,
} from "../../../server/game/format.ts";

const who = { name: "Kestrel", tag: "EUW", region: "eu", puuid: "p-1" };
const account = {
  account_level: 142,
  card: { small: "s.png", large: "l.png", wide: "w.png" },
  last_update: "5 minutes ago",
};
const rank: RankSummary = {
  current_tier_patched: "Gold 2",
  ranking_in_tier: 45,
  mmr_change_to_last_game: 18,
  elo: 1145,
  rank_image: "r.png",
};

describe("rank", () => {
  test("type 1: the tier only", () => {
    expect(formatRank({ ...who, ...account }, rank, 1)).toEqual({
      ...who,
      current_tier_patched: "Gold 2",
      text: "Gold 2",
    });
  });

  test("type 2: plus RR and the last change", () => {
    expect(formatRank({ ...who, ...account }, rank, 2)).toEqual({
      ...who,
      current_tier_patched: "Gold 2",
      ranking_in_tier: 45,
      mmr_change_to_last_game: 18,
      text: "Gold 2 - 45 RR",
    });
  });

  test("type 3: plus ELO", () => {
    expect(formatRank({ ...who, ...account }, rank, 3)).toEqual({
      ...who,
      current_tier_patched: "Gold 2",
      ranking_in_tier: 45,
      mmr_change_to_last_game: 18,
      elo: 1145,
      text: "Gold 2 - 45 RR (1145 ELO)",
    });
  });

  test("no type: the full record and a sentence", () => {
    expect(formatRank({ ...who, ...account }, rank)).toEqual({
      ...who,
      ...account,
      ...rank,
      text: "Kestrel#EUW is Gold 2 - 45 RR (1145 ELO), last game +18 RR.",
    });
  });
});

describe("today", () => {
  const today: TodaySummary = { matches_played: 4, wins: 3, losses: 1, draws: 0, rr_change: 32, winrate: 75 };

  test("type 1: record and RR", () => {
    expect(formatToday(who, today, 1)).toEqual({
      ...who,
      wins: 3,
      losses: 1,
      draws: 0,
      rr_change: 32,
      text: "3W - 1L - 0D | +32 RR",
    });
  });

  test("type 2: plus matches played", () => {
    expect(formatToday(who, today, 2)).toMatchObject({
      matches_played: 4,
      text: "4 matches | 3W - 1L - 0D | +32 RR",
    });
    expect(formatToday(who, today, 2)).not.toHaveProperty("winrate");
  });

  test("type 3: plus the winrate, shown as a percentage", () => {
    expect(formatToday(who, today, 3)).toEqual({
      ...who,
      wins: 3,
      losses: 1,
      draws: 0,
      rr_change: 32,
      matches_played: 4,
      winrate: 75,
      text: "4 matches | 3W - 1L - 0D | 75% WR | +32 RR",
    });
  });

  test("no type: every field and a sentence; a quiet day says so", () => {
    expect(formatToday(who, today)).toEqual({
      ...who,
      ...today,
      text: "Kestrel#EUW in the last 24 hours: 3W - 1L - 0D in 4 matches (75% WR), +32 RR.",
    });
    const quiet = { matches_played: 0, wins: 0, losses: 0, draws: 0, rr_change: 0, winrate: 0 };
    expect(formatToday(who, quiet).text).toBe(
      "Kestrel#EUW has not played a competitive match in the last 24 hours.",
    );
    expect(formatToday(who, quiet, 1).text).toBe("0W - 0L - 0D | 0 RR");
  });

  test("a single match and a negative RR read naturally", () => {
    const one = { matches_played: 1, wins: 0, losses: 1, draws: 0, rr_change: -16, winrate: 0 };
    expect(formatToday(who, one, 2).text).toBe("1 match | 0W - 1L - 0D | -16 RR");
  });
});

describe("stats", () => {
  const stats: StatsSummary = {
    matches_analyzed: 10,
    wins: 6,
    losses: 3,
    draws: 1,
    winrate: 60,
    favorite_agent: "Jett",
    hs_percent: 24.5,
  };
  const typedFields = {
    ...who,
    matches_analyzed: 10,
    winrate: 60,
    favorite_agent: "Jett",
    hs_percent: "24.5",
  };

  test("type 3: the compact line", () => {
    expect(formatStats(who, stats, 3)).toEqual({ ...typedFields, text: "60% WR | Jett | HS 24.5%" });
  });

  test("type 1: a short line; type 2: a sentence", () => {
    expect(formatStats(who, stats, 1)).toEqual({
      ...typedFields,
      text: "Last 10 matches: 60% WR, Jett, HS 24.5%",
    });
    expect(formatStats(who, stats, 2)).toEqual({
      ...typedFields,
      text: "Over the last 10 competitive matches Kestrel#EUW won 60% (6W 3L 1D), played Jett most and hit 24.5% headshots.",
    });
  });

  test("no type: the full record, hs_percent as a one-decimal string", () => {
    const full = formatStats(who, { ...stats, hs_percent: 24 });
    expect(full).toMatchObject({ ...who, wins: 6, losses: 3, draws: 1, hs_percent: "24.0" });
    expect(full.text).toContain("24% headshots");
  });
});

describe("last match", () => {
  const last: LastMatchSummary = {
    metadata: { map: "Bind", mode: "Competitive", matchid: "m-1", region: "eu", game_start: 1 },
    players: { all_players: [] },
    teams: { red: { has_won: false, rounds_won: 15 }, blue: { has_won: false, rounds_won: 15 } },
    derived: {
      team: "blue",
      result: "draw",
      hs_percent: 15,
      character: "Sova",
      kills: 17,
      deaths: 16,
      assists: 9,
    },
  };

  test("the score is read from the player's own side", () => {
    expect(formatLastMatch(who, last).text).toBe(
      "Kestrel#EUW's last match: Draw 15-15 on Bind as Sova, 17/16/9 KDA, HS 15%.",
    );
    const redLoss: LastMatchSummary = {
      ...last,
      teams: { red: { has_won: false, rounds_won: 9 }, blue: { has_won: true, rounds_won: 13 } },
      derived: { ...last.derived, team: "red", result: "loss" },
    };
    expect(formatLastMatch(who, redLoss).text).toStartWith("Kestrel#EUW's last match: Loss 9-13 on Bind");
  });
});

test("signed RR", () => {
  expect(signed(5)).toBe("+5");
  expect(signed(-5)).toBe("-5");
  expect(signed(0)).toBe("0");
});
