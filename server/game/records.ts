import { andThen } from "../core/maybe-promise.ts";
import { GameAnswer } from "./answer.ts";
import type { AnonymousAddress } from "./budget.ts";
import { lastMatchSummary } from "./derive.ts";
import { VariantsOf } from "./derived.ts";
import {
  formatLastMatch,
  formatRank,
  formatStats,
  formatToday,
  type GameType,
  type LastMatchRecord,
  type PlayerIdentity,
  type RankRecord,
  type RankTyped,
  type StatsRecord,
  type StatsTyped,
  type TodayRecord,
  type TodayTyped,
} from "./format.ts";
import type { PlayerQuery } from "./player.ts";
import type { GameService } from "./service.ts";

/*
 * The four game records (CONTRACT §6), each with its chat line in `text`, built the same way for the
 * HTTP game API and for the chat game commands. `stale` marks data served from the cache after the
 * provider failed. From fresh cached data a record is here at once; otherwise it is a promise.
 * `anonymous`: the client address of a caller without an API key (null for key holders and chat).
 *
 * Each record is a GameAnswer (answer.ts) made once per variant (type, stale) from the value the game
 * service derived from its cache entries, and kept with that value: a repeated request formats and
 * serialises nothing, and a refreshed entry (a new value) can never answer with the old record.
 */

function identity(q: PlayerQuery, account: { name: string; tag: string; puuid: string }): PlayerIdentity {
  return { name: account.name, tag: account.tag, region: q.region, puuid: account.puuid };
}

/** What the records read: the game service. */
export interface GameContext {
  readonly game: GameService;
}

const rankAnswers = new VariantsOf<GameAnswer<RankRecord | RankTyped>>();
const lastMatchAnswers = new VariantsOf<GameAnswer<LastMatchRecord>>();
const todayAnswers = new VariantsOf<GameAnswer<TodayRecord | TodayTyped>>();
const statsAnswers = new VariantsOf<GameAnswer<StatsRecord | StatsTyped>>();

export function rankRecord(
  ctx: GameContext,
  q: PlayerQuery,
  type: GameType | undefined,
  cacheTtlMs: number,
  anonymous: AnonymousAddress = null,
) {
  return andThen(ctx.game.rank(q, cacheTtlMs, anonymous), ({ value, stale }) =>
    rankAnswers.of(value, type, stale, () => {
      const { account, rank } = value;
      const who = {
        ...identity(q, account),
        account_level: account.account_level,
        card: account.card,
        last_update: account.last_update,
      };
      return new GameAnswer(formatRank(who, rank, type), stale);
    }),
  );
}

export function lastMatchRecord(
  ctx: GameContext,
  q: PlayerQuery,
  cacheTtlMs: number,
  anonymous: AnonymousAddress = null,
) {
  return andThen(ctx.game.lastMatch(q, cacheTtlMs, anonymous), ({ value, stale }) =>
    lastMatchAnswers.of(
      value,
      undefined,
      stale,
      () => new GameAnswer(formatLastMatch(identity(q, value.account), lastMatchSummary(value.match)), stale),
    ),
  );
}

export function todayRecord(
  ctx: GameContext,
  q: PlayerQuery,
  type: GameType | undefined,
  cacheTtlMs: number,
  anonymous: AnonymousAddress = null,
) {
  return andThen(ctx.game.today(q, cacheTtlMs, anonymous), ({ value, stale }) =>
    todayAnswers.of(
      value,
      type,
      stale,
      () => new GameAnswer(formatToday(identity(q, value.account), value.today, type), stale),
    ),
  );
}

export function statsRecord(
  ctx: GameContext,
  q: PlayerQuery,
  type: GameType | undefined,
  cacheTtlMs: number,
  anonymous: AnonymousAddress = null,
) {
  return andThen(ctx.game.stats(q, cacheTtlMs, anonymous), ({ value, stale }) =>
    statsAnswers.of(
      value,
      type,
      stale,
      () => new GameAnswer(formatStats(identity(q, value.account), value.stats, type), stale),
    ),
  );
}
