import { LRUCache } from "lru-cache";
import { SingleFlight } from "../cache/single-flight.ts";
import { echoablePlayer } from "../core/chat-echo.ts";
import type { Clock } from "../core/clock.ts";
import type { Config } from "../core/config.ts";
import { ApiError } from "../core/errors.ts";
import type { Logger } from "../core/log.ts";
import { andThen, bothOf, type MaybePromise } from "../core/maybe-promise.ts";
import type { RedisStore } from "../redis/client.ts";
import { SharedProviderBudget, SharedProviderStore } from "../redis/game-cache.ts";
import {
  type AnonymousAddress,
  addressKey,
  BudgetRefusal,
  type CallBudget,
  DEFAULT_MAX_QUEUE_MS,
  ProviderBudget,
} from "./budget.ts";
import {
  DEFAULT_PROVIDER_TIMEOUT_MS,
  GameProviderClient,
  type ProviderAccount,
  ProviderError,
  type ProviderMatch,
  type ProviderMmr,
  type ProviderMmrHistoryEntry,
  shardOf,
} from "./client.ts";
import {
  competitiveMatchesOf,
  type PlayerMatch,
  type RankSummary,
  rankSummary,
  type StatsSummary,
  statsSummary,
  type TodaySummary,
  todaySummary,
} from "./derive.ts";
import type { PlayerQuery } from "./player.ts";

/**
 * Orchestrates the provider calls behind each endpoint, with caching shaped by the provider's small
 * budget (30 requests a minute for a basic key): accounts are cached for hours because names rarely
 * change; rank and match data for the caller's role TTL; identical concurrent misses share one call;
 * and when the provider fails, data up to 10 minutes old is served, marked stale.
 */

/** Account lookups (puuid, region, card) change only on a rename. */
export const ACCOUNT_TTL_MS = 6 * 60 * 60_000;
/** How old a value may be when it stands in for a failed provider call. */
export const STALE_FOR_MS = 10 * 60_000;
const ACCOUNT_ENTRIES = 10_000;
/** Own attempts of a caller whose joined call was refused for another caller's address. */
const JOINED_RETRIES = 3;
const DATA_ENTRIES = 5_000;

export interface Served<T> {
  value: T;
  /** True when the provider failed and an older cached value was used. */
  stale: boolean;
}

interface Entry<T> {
  at: number;
  value?: T;
  /** A "this player has no such data" answer, cached so a typo repeated in chat costs one call. */
  missing?: ProviderError;
}

/** Several instances: the route's answers and fetches shared through Redis (shared-cache.ts). */
interface SharedRoute {
  store: SharedProviderStore;
  route: string;
}

/**
 * One cached provider route: fresh per caller's TTL, single-flight on misses, stale on failure. With
 * a shared store, a miss here asks the other instances' answers first and joins their fetch.
 */
class ProviderCache<T extends object> {
  readonly #entries: LRUCache<string, Entry<T>>;
  readonly #flights = new SingleFlight<string, Entry<T>>();

  constructor(
    max: number,
    private readonly keepMs: number,
    private readonly clock: Clock,
    private readonly shared: SharedRoute | null = null,
  ) {
    // ttlResolution 0: lru-cache would otherwise reuse a "now" for 1 ms, wrong under a test clock.
    this.#entries = new LRUCache<string, Entry<T>>({
      max,
      ttl: keepMs,
      ttlResolution: 0,
      perf: { now: () => clock.now() },
    });
  }

  /**
   * A fresh entry answers at once (no promise: this is the path of every cached chat command); a miss,
   * or an entry past the caller's TTL, fetches (single-flight) and falls back to a stale value when
   * the provider fails.
   */
  get(
    key: string,
    freshMs: number,
    missingFreshMs: number,
    fetch: () => Promise<T>,
    anonymous: AnonymousAddress,
  ): MaybePromise<Served<T>> {
    const hit = this.#entries.get(key);
    if (hit !== undefined && this.#isFresh(hit, freshMs, missingFreshMs)) return unwrap(hit, false);
    return this.#load(key, hit, freshMs, missingFreshMs, fetch, anonymous);
  }

  #isFresh(entry: Entry<T>, freshMs: number, missingFreshMs: number): boolean {
    return this.clock.now() - entry.at < (entry.missing ? Math.min(freshMs, missingFreshMs) : freshMs);
  }

  async #load(
    key: string,
    hit: Entry<T> | undefined,
    freshMs: number,
    missingFreshMs: number,
    fetch: () => Promise<T>,
    anonymous: AnonymousAddress,
  ): Promise<Served<T>> {
    const isFresh = (entry: Entry<T>) => this.#isFresh(entry, freshMs, missingFreshMs);
    const produce = async (): Promise<Entry<T>> => {
      try {
        return { at: this.clock.now(), value: await fetch() };
      } catch (error) {
        if (!(error instanceof ProviderError && error.isNotFound)) throw error;
        return { at: this.clock.now(), missing: error };
      }
    };
    const flight = () =>
      this.#flights.run(key, async () => {
        const shared = this.shared;
        const fresh = shared
          ? await shared.store.getOrProduce(shared.route, key, this.keepMs, isFresh, produce)
          : await produce();
        this.#entries.set(key, fresh, { ttl: this.keepMs });
        return fresh;
      });
    // A caller who joined someone else's call that the budget refused for that caller's address (its
    // share, or the anonymous half) is not refused with it: it makes its own attempt, a few at most.
    const mine = addressKey(anonymous);
    const attempt = (retries: number): Promise<Entry<T>> =>
      flight().catch((error: unknown) => {
        const othersRefusal = error instanceof BudgetRefusal && error.anonymous && error.address !== mine;
        if (othersRefusal && retries > 0) return attempt(retries - 1);
        throw error;
      });
    let entry: Entry<T>;
    try {
      entry = await attempt(JOINED_RETRIES);
    } catch (error) {
      if (hit?.value !== undefined && this.clock.now() - hit.at <= this.keepMs) return unwrap(hit, true);
      throw error;
    }
    return unwrap(entry, false);
  }
}

function unwrap<T>(entry: Entry<T>, stale: boolean): Served<T> {
  if (entry.missing) throw entry.missing;
  return { value: entry.value as T, stale };
}

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
  /** Redis shared by several instances: one provider budget, one fetch per key cluster-wide. */
  sharedGame?: RedisStore;
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

export class GameService {
  readonly budget: CallBudget;
  readonly #client: GameProviderClient;
  readonly #clock: Clock;
  readonly #accounts: ProviderCache<ProviderAccount>;
  readonly #mmr: ProviderCache<ProviderMmr>;
  readonly #history: ProviderCache<ProviderMmrHistoryEntry[]>;
  readonly #matches: ProviderCache<ProviderMatch[]>;

  constructor(deps: GameServiceDeps, options: GameServiceOptions = {}) {
    const { config, clock, log, sharedGame: shared } = deps;
    this.#clock = clock;
    this.budget = shared
      ? new SharedProviderBudget(shared, config.game.budgetPerMinute, {
          maxQueueMs: options.maxQueueMs,
          clock,
        })
      : new ProviderBudget(config.game.budgetPerMinute, clock, options.maxQueueMs);
    const store = shared
      ? new SharedProviderStore({
          ...shared,
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
          const rank = rankSummary(mmr.value);
          if (!rank) throw noRankedData(q, account.value);
          return { value: { account: account.value, rank }, stale: account.stale || mmr.stale };
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
        const match = matches.value[0];
        if (!match) throw noCompetitiveMatches(q, account.value);
        return { value: { account: account.value, match }, stale: account.stale || matches.stale };
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
          // A ranked player always has rank history; no history and no competitive match means no ranked data.
          if (history.value.length === 0 && matches.value.length === 0) throw noRankedData(q, account.value);
          const today = todaySummary(history.value, matches.value, this.#clock.now());
          return {
            value: { account: account.value, today },
            stale: account.stale || history.stale || matches.stale,
          };
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
        const stats = statsSummary(matches.value);
        if (!stats) throw noCompetitiveMatches(q, account.value);
        return { value: { account: account.value, stats }, stale: account.stale || matches.stale };
      }),
    );
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
      (matches) => ({ value: competitiveMatchesOf(matches.value, account.puuid), stale: matches.stale }),
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

/** The provider's name for the player, else the typed one when it may be echoed (CONTRACT §6). */
function displayId(q: PlayerQuery, account: ProviderAccount | null): string {
  return account ? `${account.name}#${account.tag}` : (echoablePlayer(q.name, q.tag) ?? "That player");
}

/** " in NA", plus where the account really plays when that is another shard. */
function regionPhrase(q: PlayerQuery, account: ProviderAccount | null): string {
  const asked = q.region.toUpperCase();
  if (account?.region && shardOf(account.region) !== shardOf(q.region)) {
    return ` in ${asked} (the account plays in ${account.region.toUpperCase()})`;
  }
  return ` in ${asked}`;
}

function noSuchPlayer(q: PlayerQuery): string {
  const shown = echoablePlayer(q.name, q.tag);
  return shown
    ? `No player ${shown} exists; check the name and the tag.`
    : "That player does not exist; check the name and the tag.";
}

function playerNotFound(message: string): ApiError {
  return new ApiError(404, "player_not_found", message);
}

function noRankedData(q: PlayerQuery, account: ProviderAccount | null): ApiError {
  return playerNotFound(`${displayId(q, account)} has no ranked data${regionPhrase(q, account)}.`);
}

function noCompetitiveMatches(q: PlayerQuery, account: ProviderAccount): ApiError {
  return playerNotFound(
    `${displayId(q, account)} has no recent competitive matches${regionPhrase(q, account)}.`,
  );
}

function upstreamError(message: string, headers?: Record<string, string>): ApiError {
  // The game API documents only 400/404/500, so provider trouble is a 500 here (CONTRACT §5).
  return new ApiError(500, "upstream_error", message, headers);
}

/** A budget refusal or a provider 429: when to retry, in whole seconds (≥ 1). */
function rateLimited(error: ProviderError): ApiError {
  if (error.retryAfterMs === null) {
    return upstreamError("The game statistics provider's rate limit is reached; try again in a minute.");
  }
  const seconds = Math.max(1, Math.ceil(error.retryAfterMs / 1000));
  const headers = { "retry-after": String(seconds) };
  const when = seconds === 1 ? "in a second" : `in ${seconds} seconds`;
  if (error instanceof BudgetRefusal && error.anonymous) {
    return upstreamError(
      `Game statistics lookups without an API key are used up for now; try again ${when}, or ask with an API key.`,
      headers,
    );
  }
  return upstreamError(`The game statistics provider's rate limit is reached; try again ${when}.`, headers);
}

export function toApiError(error: ProviderError, q: PlayerQuery, account: ProviderAccount | null): ApiError {
  switch (error.kind) {
    case "player_not_found":
      return playerNotFound(noSuchPlayer(q));
    case "no_region":
    case "no_recent_matches":
      return playerNotFound(
        `${displayId(q, account)} has no recent matches the game provider knows of; play a match first.`,
      );
    case "no_rank":
      return noRankedData(q, account);
    case "key_missing":
      return upstreamError(
        "The game statistics provider needs an API key: the server owner must set CUEBOT_GAME_API_KEY.",
      );
    case "key_refused":
      return upstreamError(
        "The game statistics provider refused the request (a wrong API key or maintenance); try again later.",
      );
    case "rate_limited":
      return rateLimited(error);
    case "timeout":
      return upstreamError("The game statistics provider did not answer in time; try again in a minute.");
    case "malformed":
      return upstreamError(
        "The game statistics provider sent an answer cuebot could not read; try again later.",
      );
    case "unavailable":
      return upstreamError("The game statistics provider is unavailable right now; try again in a minute.");
  }
}
