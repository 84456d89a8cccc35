import type { Clock } from "../core/clock.ts";
import type { Config } from "../core/config.ts";
import type { Logger } from "../core/log.ts";
import { andThen, bothOf, type MaybePromise } from "../core/maybe-promise.ts";
import { type AnonymousAddress, type CallBudget, DEFAULT_MAX_QUEUE_MS, ProviderBudget } from "./budget.ts";
import {
  DEFAULT_PROVIDER_TIMEOUT_MS,
  GameProviderClient,
  type ProviderAccount,
  type ProviderMatch,
  type ProviderMmr,
  type ProviderMmrHistoryEntry,
} from "./client.ts";
import {
  competitiveMatchesOf,
  type PlayerMatch,
  type RankSummary,
  rankSummary,
  type StatsSummary,
  statsSummary,
  type TodaySummary,
  todayHoldsUntil,
  todaySummary,
} from "./derive.ts";
import { DerivedFrom } from "./derived.ts";
import { noCompetitiveMatches, noRankedData, toApiError } from "./lookup-errors.ts";
import type { PlayerQuery } from "./player.ts";
import {
  ProviderCache,
  type Served,
  type SharedFetchTiming,
  type SharedProviderEntries,
} from "./provider-cache.ts";
import { ProviderError } from "./provider-error.ts";

/**
 * Orchestrates the provider calls behind each endpoint, with caching shaped by the provider's small
 * budget (30 requests a minute for a basic key): accounts are cached for hours because names rarely
 * change; rank and match data for the caller's role TTL; identical concurrent misses share one call;
 * and when the provider fails, data up to 10 minutes old is served, marked stale (each route's cache
 * is a ProviderCache, server/game/provider-cache.ts); a failure is answered in the words of
 * server/game/lookup-errors.ts.
 */

/** Account lookups (puuid, region, card) change only on a rename. */
export const ACCOUNT_TTL_MS = 6 * 60 * 60_000;
/** How old a value may be when it stands in for a failed provider call. */
export const STALE_FOR_MS = 10 * 60_000;
const ACCOUNT_ENTRIES = 10_000;
const DATA_ENTRIES = 5_000;

/** ASCII needs no Unicode normalisation (most names are ASCII; this runs on every request). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range, control characters included
const ASCII = /^[\x00-\x7f]*$/;

function keyOf(name: string, tag: string): string {
  const key = `${name}#${tag}`;
  return (ASCII.test(key) ? key : `${name.normalize("NFC")}#${tag.normalize("NFC")}`).toLowerCase();
}

/** A player's cache keys, worked out once per request: the account by Riot ID, the data by region too. */
class PlayerKeys {
  readonly account: string;
  readonly data: string;
  constructor(q: PlayerQuery) {
    this.account = keyOf(q.name, q.tag);
    this.data = `${q.region}/${this.account}`;
  }
}

export interface GameServiceDeps {
  config: Config;
  clock: Clock;
  log: Logger;
  /** Shared by several instances (Redis): one provider budget, one fetch per key cluster-wide. */
  sharedGame?: SharedGame;
}

/** What several instances share (with `--redis-url`: server/redis/game-cache.ts's sharedGameOn). */
export interface SharedGame {
  /** The provider key's per-minute budget, counted across every instance. */
  budget(perMinute: number | null, options: { maxQueueMs?: number; clock: Clock }): CallBudget;
  /** The provider's answers, one fetch per key across every instance. */
  entries(timing: SharedFetchTiming): SharedProviderEntries;
}

export interface GameServiceOptions {
  /** Per provider request (default 5 s). */
  timeoutMs?: number;
  /** How long a call may wait for a free slot in the per-minute budget. */
  maxQueueMs?: number;
}

export interface PlayerRank {
  account: ProviderAccount;
  rank: RankSummary;
}

export interface PlayerLastMatch {
  account: ProviderAccount;
  match: PlayerMatch;
}

export interface PlayerToday {
  account: ProviderAccount;
  today: TodaySummary;
}

export interface PlayerStats {
  account: ProviderAccount;
  stats: StatsSummary;
}

/** A today summary and the last moment it holds (it reads the clock: the 24 h window rolls). */
interface TodayUntil {
  player: PlayerToday | null;
  until: number;
}

export class GameService {
  readonly budget: CallBudget;
  readonly #client: GameProviderClient;
  readonly #clock: Clock;
  readonly #accounts: ProviderCache<ProviderAccount>;
  readonly #mmr: ProviderCache<ProviderMmr>;
  readonly #history: ProviderCache<ProviderMmrHistoryEntry[]>;
  readonly #matches: ProviderCache<ProviderMatch[]>;
  /*
   * What each answer derives from the cached values, worked out once per value (derived.ts): a repeated
   * request derives nothing, and returns the same object, which records.ts keeps the answers with.
   * null: the player has no such data (each request throws its error).
   */
  readonly #ranks = new DerivedFrom<PlayerRank | null>();
  readonly #competitiveOf = new DerivedFrom<PlayerMatch[]>();
  readonly #lastMatches = new DerivedFrom<PlayerLastMatch | null>();
  readonly #stats = new DerivedFrom<PlayerStats | null>();
  readonly #todays = new DerivedFrom<TodayUntil>((today) => this.#clock.now() <= today.until);

  constructor(deps: GameServiceDeps, options: GameServiceOptions = {}) {
    const { config, clock, log, sharedGame: shared } = deps;
    this.#clock = clock;
    this.budget = shared
      ? shared.budget(config.game.budgetPerMinute, { maxQueueMs: options.maxQueueMs, clock })
      : new ProviderBudget(config.game.budgetPerMinute, clock, options.maxQueueMs);
    const store = shared
      ? shared.entries({
          providerTimeoutMs: options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS,
          maxQueueMs: options.maxQueueMs ?? DEFAULT_MAX_QUEUE_MS,
          now: () => clock.now(),
        })
      : null;
    const route = (name: string) => (store ? { store, route: name } : null);
    this.#client = new GameProviderClient({
      baseUrl: config.game.apiUrl,
      apiKey: config.game.apiKey,
      budget: this.budget,
      log,
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    });
    this.#accounts = new ProviderCache(
      ACCOUNT_ENTRIES,
      ACCOUNT_TTL_MS + STALE_FOR_MS,
      clock,
      route("account"),
    );
    this.#mmr = new ProviderCache(DATA_ENTRIES, STALE_FOR_MS, clock, route("mmr"));
    this.#history = new ProviderCache(DATA_ENTRIES, STALE_FOR_MS, clock, route("mmr-history"));
    this.#matches = new ProviderCache(DATA_ENTRIES, STALE_FOR_MS, clock, route("matches"));
  }

  /*
   * Each answer is here at once when everything it needs is cached and fresh (the common case: a chat
   * command asked again within its TTL), and a promise otherwise. `anonymous` is the client address
   * of a caller without an API key, whose provider calls draw from the anonymous share of the budget;
   * null (the default) for key holders and native chat.
   */

  rank(q: PlayerQuery, ttlMs: number, anonymous: AnonymousAddress = null): MaybePromise<Served<PlayerRank>> {
    const keys = new PlayerKeys(q);
    return andThen(this.#account(q, keys, ttlMs, anonymous), (account) =>
      andThen(
        this.#cached(q, account.value, () =>
          this.#mmr.get(
            keys.data,
            ttlMs,
            ttlMs,
            () => this.#client.mmr(q.region, q.name, q.tag, anonymous),
            anonymous,
          ),
        ),
        (mmr) => {
          const player = this.#ranks.of(mmr.value, account.value, () => {
            const rank = rankSummary(mmr.value);
            return rank ? { account: account.value, rank } : null;
          });
          if (!player) throw noRankedData(q, account.value);
          return { value: player, stale: account.stale || mmr.stale };
        },
      ),
    );
  }

  lastMatch(
    q: PlayerQuery,
    ttlMs: number,
    anonymous: AnonymousAddress = null,
  ): MaybePromise<Served<PlayerLastMatch>> {
    const keys = new PlayerKeys(q);
    return andThen(this.#account(q, keys, ttlMs, anonymous), (account) =>
      andThen(this.#competitive(q, keys, account.value, ttlMs, anonymous), (matches) => {
        const last = this.#lastMatches.of(matches.value, account.value, () => {
          const match = matches.value[0];
          return match ? { account: account.value, match } : null;
        });
        if (!last) throw noCompetitiveMatches(q, account.value);
        return { value: last, stale: account.stale || matches.stale };
      }),
    );
  }

  today(
    q: PlayerQuery,
    ttlMs: number,
    anonymous: AnonymousAddress = null,
  ): MaybePromise<Served<PlayerToday>> {
    const keys = new PlayerKeys(q);
    return andThen(this.#account(q, keys, ttlMs, anonymous), (account) =>
      andThen(
        bothOf(
          this.#cached(q, account.value, () =>
            this.#history.get(
              keys.data,
              ttlMs,
              ttlMs,
              () => this.#client.mmrHistory(q.region, q.name, q.tag, anonymous),
              anonymous,
            ),
          ),
          () => this.#competitive(q, keys, account.value, ttlMs, anonymous),
        ),
        ([history, matches]) => {
          // The competitive list is derived for this account: it stands for the account as well.
          const { player } = this.#todays.of(history.value, matches.value, () =>
            this.#today(account.value, history.value, matches.value),
          );
          if (!player) throw noRankedData(q, account.value);
          return { value: player, stale: account.stale || history.stale || matches.stale };
        },
      ),
    );
  }

  stats(
    q: PlayerQuery,
    ttlMs: number,
    anonymous: AnonymousAddress = null,
  ): MaybePromise<Served<PlayerStats>> {
    const keys = new PlayerKeys(q);
    return andThen(this.#account(q, keys, ttlMs, anonymous), (account) =>
      andThen(this.#competitive(q, keys, account.value, ttlMs, anonymous), (matches) => {
        const player = this.#stats.of(matches.value, account.value, () => {
          const stats = statsSummary(matches.value);
          return stats ? { account: account.value, stats } : null;
        });
        if (!player) throw noCompetitiveMatches(q, account.value);
        return { value: player, stale: account.stale || matches.stale };
      }),
    );
  }

  #today(account: ProviderAccount, history: ProviderMmrHistoryEntry[], matches: PlayerMatch[]): TodayUntil {
    const now = this.#clock.now();
    // A ranked player always has rank history; no history and no competitive match means no ranked data.
    if (history.length === 0 && matches.length === 0)
      return { player: null, until: Number.POSITIVE_INFINITY };
    return {
      player: { account, today: todaySummary(history, matches, now) },
      until: todayHoldsUntil(history, matches, now),
    };
  }

  #account(
    q: PlayerQuery,
    keys: PlayerKeys,
    ttlMs: number,
    anonymous: AnonymousAddress,
  ): MaybePromise<Served<ProviderAccount>> {
    return this.#cached(q, null, () =>
      this.#accounts.get(
        keys.account,
        ACCOUNT_TTL_MS,
        ttlMs,
        () => this.#client.account(q.name, q.tag, anonymous),
        anonymous,
      ),
    );
  }

  #competitive(
    q: PlayerQuery,
    keys: PlayerKeys,
    account: ProviderAccount,
    ttlMs: number,
    anonymous: AnonymousAddress,
  ): MaybePromise<Served<PlayerMatch[]>> {
    return andThen(
      this.#cached(q, account, () =>
        this.#matches.get(
          keys.data,
          ttlMs,
          ttlMs,
          () => this.#client.competitiveMatches(q.region, q.name, q.tag, anonymous),
          anonymous,
        ),
      ),
      (matches) => ({
        value: this.#competitiveOf.of(matches.value, account, () =>
          competitiveMatchesOf(matches.value, account.puuid),
        ),
        stale: matches.stale,
      }),
    );
  }

  /** Runs a provider-backed lookup and turns its failure (now or later) into the error the caller sees. */
  #cached<T>(
    q: PlayerQuery,
    account: ProviderAccount | null,
    load: () => MaybePromise<Served<T>>,
  ): MaybePromise<Served<T>> {
    const fail = (error: unknown): never => {
      if (error instanceof ProviderError) throw toApiError(error, q, account);
      throw error;
    };
    try {
      const loaded = load();
      return loaded instanceof Promise ? loaded.catch(fail) : loaded;
    } catch (error) {
      return fail(error);
    }
  }
}

export function createGameService(deps: GameServiceDeps, options: GameServiceOptions = {}): GameService {
  return new GameService(deps, options);
}
