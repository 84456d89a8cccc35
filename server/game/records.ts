import { andThen } from "../core/maybe-promise.ts";
import type { Context } from "../runtime.ts";
import type { AnonymousAddress } from "./budget.ts";
import { lastMatchSummary } from "./derive.ts";
import {
  formatLastMatch,
  formatRank,
  formatStats,
  formatToday,
  type GameType,
  type PlayerIdentity,
} from "./format.ts";
import type { PlayerQuery } from "./player.ts";

/*
 * The four game records (CONTRACT §6), each with its chat line in `text`, built the same way for the
 * HTTP game API and for the chat game commands. `stale` marks data served from the cache after the
 * provider failed. From fresh cached data a record is built at once; otherwise it is a promise.
 * `anonymous`: the client address of a caller without an API key (null for key holders and chat).
 */

function identity(q: PlayerQuery, account: { name: string; tag: string; puuid: string }): PlayerIdentity {
  return { name: account.name, tag: account.tag, region: q.region, puuid: account.puuid };
}

type GameContext = Pick<Context, "game">;

export function rankRecord(
  ctx: GameContext,
  q: PlayerQuery,
  type: GameType | undefined,
  cacheTtlMs: number,
  anonymous: AnonymousAddress = null,
) {
  return andThen(ctx.game.rank(q, cacheTtlMs, anonymous), ({ value, stale }) => {
    const { account, rank } = value;
    const who = {
      ...identity(q, account),
      account_level: account.account_level,
      card: account.card,
      last_update: account.last_update,
    };
    return { data: formatRank(who, rank, type), stale };
  });
}

export function lastMatchRecord(
  ctx: GameContext,
  q: PlayerQuery,
  cacheTtlMs: number,
  anonymous: AnonymousAddress = null,
) {
  return andThen(ctx.game.lastMatch(q, cacheTtlMs, anonymous), ({ value, stale }) => ({
    data: formatLastMatch(identity(q, value.account), lastMatchSummary(value.match)),
    stale,
  }));
}

export function todayRecord(
  ctx: GameContext,
  q: PlayerQuery,
  type: GameType | undefined,
  cacheTtlMs: number,
  anonymous: AnonymousAddress = null,
) {
  return andThen(ctx.game.today(q, cacheTtlMs, anonymous), ({ value, stale }) => ({
    data: formatToday(identity(q, value.account), value.today, type),
    stale,
  }));
}

export function statsRecord(
  ctx: GameContext,
  q: PlayerQuery,
  type: GameType | undefined,
  cacheTtlMs: number,
  anonymous: AnonymousAddress = null,
) {
  return andThen(ctx.game.stats(q, cacheTtlMs, anonymous), ({ value, stale }) => ({
    data: formatStats(identity(q, value.account), value.stats, type),
    stale,
  }));
}
