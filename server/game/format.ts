import type { LastMatchSummary, MatchResult, RankSummary, StatsSummary, TodaySummary } from "./derive.ts";

/**
 * What each endpoint answers: the full record, or with `type` the fields of CONTRACT §6's table, and
 * always the chat line in `text`. Pure functions of derived data.
 */

export type GameType = 1 | 2 | 3;

/** Kept in every record, typed or not (CONTRACT §6). */
export interface PlayerIdentity {
  name: string;
  tag: string;
  /** As requested, lowercase. */
  region: string;
  puuid: string;
}

export interface AccountDetails {
  account_level: number;
  card: { small: string; large: string; wide: string };
  last_update: string;
}

type WithText<T> = T & { text: string };

export type RankRecord = WithText<PlayerIdentity & AccountDetails & RankSummary>;
export type RankTyped = WithText<
  PlayerIdentity &
    Pick<RankSummary, "current_tier_patched"> &
    Partial<Pick<RankSummary, "ranking_in_tier" | "mmr_change_to_last_game" | "elo">>
>;
export type LastMatchRecord = WithText<PlayerIdentity & LastMatchSummary>;
export type TodayRecord = WithText<PlayerIdentity & TodaySummary>;
export type TodayTyped = WithText<
  PlayerIdentity &
    Pick<TodaySummary, "wins" | "losses" | "draws" | "rr_change"> &
    Partial<Pick<TodaySummary, "matches_played" | "winrate">>
>;
export type StatsFields = Omit<StatsSummary, "hs_percent"> & { hs_percent: string };
export type StatsRecord = WithText<PlayerIdentity & StatsFields>;
export type StatsTyped = WithText<
  PlayerIdentity & Pick<StatsFields, "matches_analyzed" | "winrate" | "favorite_agent" | "hs_percent">
>;

/** "Name#Tag", the way players write their Riot ID. */
export function riotId(p: { name: string; tag: string }): string {
  return `${p.name}#${p.tag}`;
}

/** +18, -16, 0: a signed RR change. */
export function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

/** 75 → "75%", 55.6 → "55.6%": one decimal only when there is one. */
export function percentText(n: number): string {
  return `${n}%`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "es"}`;
}

export function formatRank(
  who: PlayerIdentity & AccountDetails,
  rank: RankSummary,
  type?: GameType,
): RankRecord | RankTyped {
  const tier = rank.current_tier_patched;
  const withRr = `${tier} - ${rank.ranking_in_tier} RR`;
  const withElo = `${withRr} (${rank.elo} ELO)`;
  const id = { name: who.name, tag: who.tag, region: who.region, puuid: who.puuid };
  switch (type) {
    case 1:
      return { ...id, current_tier_patched: tier, text: tier };
    case 2:
      return {
        ...id,
        current_tier_patched: tier,
        ranking_in_tier: rank.ranking_in_tier,
        mmr_change_to_last_game: rank.mmr_change_to_last_game,
        text: withRr,
      };
    case 3:
      return {
        ...id,
        current_tier_patched: tier,
        ranking_in_tier: rank.ranking_in_tier,
        mmr_change_to_last_game: rank.mmr_change_to_last_game,
        elo: rank.elo,
        text: withElo,
      };
    default:
      return {
        ...id,
        account_level: who.account_level,
        card: who.card,
        last_update: who.last_update,
        ...rank,
        text: `${riotId(who)} is ${withElo}, last game ${signed(rank.mmr_change_to_last_game)} RR.`,
      };
  }
}

const RESULT_WORD: Record<MatchResult, string> = { win: "Win", loss: "Loss", draw: "Draw" };

export function formatLastMatch(who: PlayerIdentity, last: LastMatchSummary): LastMatchRecord {
  const d = last.derived;
  const own = last.teams[d.team].rounds_won;
  const other = last.teams[d.team === "red" ? "blue" : "red"].rounds_won;
  const text =
    `${riotId(who)}'s last match: ${RESULT_WORD[d.result]} ${own}-${other} on ${last.metadata.map}` +
    ` as ${d.character}, ${d.kills}/${d.deaths}/${d.assists} KDA, HS ${percentText(d.hs_percent)}.`;
  return { ...who, ...last, text };
}

export function formatToday(
  who: PlayerIdentity,
  today: TodaySummary,
  type?: GameType,
): TodayRecord | TodayTyped {
  const record = `${today.wins}W - ${today.losses}L - ${today.draws}D`;
  const rr = `${signed(today.rr_change)} RR`;
  const played = plural(today.matches_played, "match");
  const base = {
    ...who,
    wins: today.wins,
    losses: today.losses,
    draws: today.draws,
    rr_change: today.rr_change,
  };
  switch (type) {
    case 1:
      return { ...base, text: `${record} | ${rr}` };
    case 2:
      return { ...base, matches_played: today.matches_played, text: `${played} | ${record} | ${rr}` };
    case 3:
      return {
        ...base,
        matches_played: today.matches_played,
        winrate: today.winrate,
        text: `${played} | ${record} | ${percentText(today.winrate)} WR | ${rr}`,
      };
    default:
      return {
        ...who,
        ...today,
        text:
          today.matches_played === 0
            ? `${riotId(who)} has not played a competitive match in the last 24 hours.`
            : `${riotId(who)} in the last 24 hours: ${record} in ${played} (${percentText(today.winrate)} WR), ${rr}.`,
      };
  }
}

export function formatStats(
  who: PlayerIdentity,
  stats: StatsSummary,
  type?: GameType,
): StatsRecord | StatsTyped {
  const hs = stats.hs_percent.toFixed(1);
  const n = stats.matches_analyzed;
  const wr = percentText(stats.winrate);
  const hsText = percentText(stats.hs_percent);
  const sentence =
    `Over the last ${plural(n, "competitive match")} ${riotId(who)} won ${wr}` +
    ` (${stats.wins}W ${stats.losses}L ${stats.draws}D), played ${stats.favorite_agent} most` +
    ` and hit ${hsText} headshots.`;
  const fields = {
    ...who,
    matches_analyzed: n,
    winrate: stats.winrate,
    favorite_agent: stats.favorite_agent,
    hs_percent: hs,
  };
  switch (type) {
    case 1:
      return {
        ...fields,
        text: `Last ${plural(n, "match")}: ${wr} WR, ${stats.favorite_agent}, HS ${hsText}`,
      };
    case 2:
      return { ...fields, text: sentence };
    case 3:
      return { ...fields, text: `${wr} WR | ${stats.favorite_agent} | HS ${hsText}` };
    default:
      return { ...who, ...stats, hs_percent: hs, text: sentence };
  }
}
