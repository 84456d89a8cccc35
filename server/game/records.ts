import type { Context } from "../context.ts";
import { lastMatchSummary } from "./derive.ts";
import {
  formatLastMatch,
  formatRank,
  formatStats,
  formatToday,
  type GameType,
  type PlayerIdentity,
} from "./format.ts";
import type { PlayerQuery } from "./service.ts";

/*
 * The four game records (CONTRACT §6), each with its chat line in `text`, built the same way for the
 * HTTP game API and for the chat game commands. `stale` marks data served from the cache after the
 * provider failed.
 */

function identity(q: PlayerQuery, account: { name: string; tag: string; puuid: string }): PlayerIdentity {
  return { name: account.name, tag: account.tag, region: q.region, puuid: account.puuid };
}

type GameContext = Pick<Context, "game">;

export async function rankRecord(
  ctx: GameContext,
  q: PlayerQuery,
  type: GameType | undefined,
  cacheTtlMs: number,
) {
  const { value, stale } = await ctx.game.rank(q, cacheTtlMs);
  const { account, rank } = value;
  const who = {
    ...identity(q, account),
    account_level: account.account_level,
    card: account.card,
    last_update: account.last_update,
  };
  return { data: formatRank(who, rank, type), stale };
}

export async function lastMatchRecord(ctx: GameContext, q: PlayerQuery, cacheTtlMs: number) {
  const { value, stale } = await ctx.game.lastMatch(q, cacheTtlMs);
  return { data: formatLastMatch(identity(q, value.account), lastMatchSummary(value.match)), stale };
}

export async function todayRecord(
  ctx: GameContext,
  q: PlayerQuery,
  type: GameType | undefined,
  cacheTtlMs: number,
) {
  const { value, stale } = await ctx.game.today(q, cacheTtlMs);
  return { data: formatToday(identity(q, value.account), value.today, type), stale };
}

export async function statsRecord(
  ctx: GameContext,
  q: PlayerQuery,
  type: GameType | undefined,
  cacheTtlMs: number,
) {
  const { value, stale } = await ctx.game.stats(q, cacheTtlMs);
  return { data: formatStats(identity(q, value.account), value.stats, type), stale };
}
