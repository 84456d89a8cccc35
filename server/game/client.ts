import type { Logger } from "../core/log.ts";
import { GAME_REGIONS, type GameRegion } from "../vocabulary.ts";
import type { AnonymousAddress, CallBudget } from "./budget.ts";
import { ProviderError, type ProviderFailureKind } from "./provider-error.ts";

/**
 * The game-statistics provider's HTTP client (reference/game-provider.md §1–2): account v1, MMR v2,
 * MMR history v1 and matches v3. It turns the provider's answers into small typed values, its
 * failures into two kinds (the player has no data / the provider cannot help right now), and never
 * spends more than its budget (budget.ts), whose size it learns from the provider's headers.
 */

export const REGIONS = GAME_REGIONS;
export type Region = GameRegion;

/** The provider converts br and latam to na for rank data: they share one shard. */
export function shardOf(region: string): string {
  const lower = region.toLowerCase();
  return lower === "br" || lower === "latam" ? "na" : lower;
}

export interface ProviderAccount {
  puuid: string;
  region: string;
  account_level: number;
  name: string;
  tag: string;
  card: { small: string; large: string; wide: string };
  last_update: string;
}

export interface ProviderMmr {
  currenttier: number | null;
  currenttierpatched: string | null;
  ranking_in_tier: number | null;
  mmr_change_to_last_game: number | null;
  elo: number | null;
  image: string | null;
}

export interface ProviderMmrHistoryEntry {
  match_id: string;
  mmr_change_to_last_game: number;
  elo: number | null;
  /** Unix seconds. */
  date_raw: number;
}

export type TeamSide = "red" | "blue";

export interface ProviderMatchPlayer {
  puuid: string;
  name: string;
  tag: string;
  /** Null outside team modes (deathmatch puts the puuid there). */
  team: TeamSide | null;
  character: string;
  kills: number;
  deaths: number;
  assists: number;
  headshots: number;
  bodyshots: number;
  legshots: number;
}

export interface ProviderTeam {
  has_won: boolean | null;
  rounds_won: number | null;
}

export interface ProviderMatch {
  matchid: string;
  map: string;
  mode: string;
  /** Unix seconds. */
  game_start: number;
  region: string;
  players: ProviderMatchPlayer[];
  teams: Record<TeamSide, ProviderTeam>;
}

/** v4 error codes 22–25 are "this player has no such data" (reference §1.6); everything else is ours to retry. */
const NOT_FOUND_CODES: Record<number, ProviderFailureKind> = {
  22: "player_not_found",
  23: "no_region",
  24: "no_recent_matches",
  25: "no_rank",
};

export interface GameProviderClientOptions {
  baseUrl: string;
  apiKey: string | null;
  budget: CallBudget;
  log: Logger;
  /** Per request, including reading the body. */
  timeoutMs?: number;
}

export const DEFAULT_PROVIDER_TIMEOUT_MS = 5_000;

export class GameProviderClient {
  readonly #timeoutMs: number;

  constructor(private readonly options: GameProviderClientOptions) {
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
  }

  /*
   * `anonymous`: the address of a caller without an API key, whose calls draw from the anonymous
   * share of the budget (budget.ts); null for key holders and native chat.
   */

  async account(name: string, tag: string, anonymous: AnonymousAddress = null): Promise<ProviderAccount> {
    const body = await this.#get("account", `/valorant/v1/account/${seg(name)}/${seg(tag)}`, anonymous);
    return parseAccount(body);
  }

  async mmr(
    region: Region,
    name: string,
    tag: string,
    anonymous: AnonymousAddress = null,
  ): Promise<ProviderMmr> {
    const body = await this.#get("mmr", `/valorant/v2/mmr/${region}/${seg(name)}/${seg(tag)}`, anonymous);
    return parseMmr(body);
  }

  /** Competitive games only, newest first (at most ~20). */
  async mmrHistory(
    region: Region,
    name: string,
    tag: string,
    anonymous: AnonymousAddress = null,
  ): Promise<ProviderMmrHistoryEntry[]> {
    const body = await this.#get(
      "mmr-history",
      `/valorant/v1/mmr-history/${region}/${seg(name)}/${seg(tag)}`,
      anonymous,
    );
    return parseMmrHistory(body);
  }

  /** The last 10 competitive matches, newest first; items the provider could not load are left out. */
  async competitiveMatches(
    region: Region,
    name: string,
    tag: string,
    anonymous: AnonymousAddress = null,
  ): Promise<ProviderMatch[]> {
    const body = await this.#get(
      "matches",
      `/valorant/v3/matches/${region}/${seg(name)}/${seg(tag)}?mode=competitive&size=10`,
      anonymous,
    );
    return parseMatches(body);
  }

  async #get(route: string, path: string, anonymous: AnonymousAddress): Promise<unknown> {
    const { apiKey, baseUrl, budget, log } = this.options;
    if (!apiKey) {
      throw new ProviderError("key_missing", "no provider key is configured (CUEBOT_GAME_API_KEY)");
    }
    await budget.acquire(anonymous);
    let response: Response;
    let text: string;
    try {
      // The raw key goes in Authorization, without "Bearer" (reference §1.2).
      response = await fetch(`${baseUrl}${path}`, {
        headers: { authorization: apiKey, accept: "application/json" },
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      const timedOut = error instanceof DOMException && error.name === "TimeoutError";
      log.warn("game provider request failed", { route, timedOut, error });
      throw timedOut
        ? new ProviderError("timeout", `the provider did not answer within ${this.#timeoutMs} ms`)
        : new ProviderError("unavailable", "the provider could not be reached");
    }
    this.#respectRateLimit(response);
    if (response.ok) {
      try {
        return JSON.parse(text);
      } catch {
        throw new ProviderError("malformed", "the provider's answer is not JSON", response.status);
      }
    }
    const failure = withRetryAfter(classifyFailure(response.status, text), response.headers);
    if (!failure.isNotFound) {
      log.warn("game provider refused a request", {
        route,
        status: response.status,
        providerCode: failure.providerCode,
        providerMessage: failure.message,
        rateLimitLimit: response.headers.get("x-ratelimit-limit"),
        rateLimitRemaining: response.headers.get("x-ratelimit-remaining"),
        rateLimitReset: response.headers.get("x-ratelimit-reset"),
      });
    }
    throw failure;
  }

  /**
   * The key's limit as the provider states it sizes our budget; a 429 or an exhausted remaining count
   * pauses us until the provider's window resets.
   */
  #respectRateLimit(response: Response): void {
    const limit = response.headers.get("x-ratelimit-limit");
    if (limit !== null) this.options.budget.learnLimit(Number(limit));
    const remaining = Number(response.headers.get("x-ratelimit-remaining") ?? Number.NaN);
    if (response.status !== 429 && !(remaining === 0)) return;
    this.options.budget.pauseFor(resetMs(response.headers));
  }
}

const MINUTE_MS = 60_000;

function seg(value: string): string {
  return encodeURIComponent(value);
}

/** `x-ratelimit-reset` is seconds until the window resets (an epoch value is tolerated); default one minute. */
function resetMs(headers: Headers): number {
  const raw = Number(headers.get("x-ratelimit-reset") ?? headers.get("retry-after") ?? Number.NaN);
  if (!Number.isFinite(raw) || raw <= 0) return MINUTE_MS;
  const seconds = raw > 1_000_000_000 ? raw - Date.now() / 1000 : raw;
  return Math.min(Math.max(seconds * 1000, 1000), MINUTE_MS);
}

/** A provider 429 says when its window resets: the caller is told when to retry. */
function withRetryAfter(failure: ProviderError, headers: Headers): ProviderError {
  if (failure.kind !== "rate_limited") return failure;
  const { kind, message, providerStatus, providerCode } = failure;
  return new ProviderError(kind, message, providerStatus, providerCode, resetMs(headers));
}

/**
 * The HTTP status is the truth; the body's `errors[0]` adds the code. Both error shapes exist in the
 * wild (with and without a top-level `status`), so neither is required (reference §1.4).
 */
export function classifyFailure(status: number, text: string): ProviderError {
  let code: number | null = null;
  let message = "";
  try {
    const body = JSON.parse(text) as { errors?: unknown; message?: unknown };
    const first = Array.isArray(body.errors)
      ? (body.errors[0] as Record<string, unknown> | undefined)
      : undefined;
    if (first && typeof first.code === "number") code = first.code;
    if (first && typeof first.message === "string") message = first.message;
    else if (typeof body.message === "string") message = body.message;
  } catch {
    // A non-JSON error body (a proxy's HTML page) still has a meaningful status.
  }
  const detail = message || `HTTP ${status}`;
  if (status === 404 && code !== null && NOT_FOUND_CODES[code]) {
    return new ProviderError(NOT_FOUND_CODES[code]!, detail, status, code);
  }
  if (status === 401) return new ProviderError("key_missing", detail, status, code);
  if (status === 403) return new ProviderError("key_refused", detail, status, code);
  if (status === 429) return new ProviderError("rate_limited", detail, status, code);
  if (status === 408) return new ProviderError("timeout", detail, status, code);
  return new ProviderError("unavailable", detail, status, code);
}

// ---- parsing: the provider's JSON → our small types; anything unexpected is a malformed answer ----

type Json = Record<string, unknown>;

function malformed(what: string): ProviderError {
  return new ProviderError("malformed", `the provider's answer has no usable ${what}`);
}

function object(value: unknown, what: string): Json {
  if (value && typeof value === "object" && !Array.isArray(value)) return value as Json;
  throw malformed(what);
}

function string(o: Json, key: string): string {
  const value = o[key];
  if (typeof value === "string") return value;
  throw malformed(key);
}

function optionalString(o: Json, key: string): string | null {
  const value = o[key];
  return typeof value === "string" && value !== "" ? value : null;
}

function integer(o: Json, key: string): number {
  const value = o[key];
  if (typeof value === "number" && Number.isFinite(value)) return value;
  throw malformed(key);
}

function optionalInteger(o: Json, key: string): number | null {
  const value = o[key];
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function dataOf(body: unknown): unknown {
  return object(body, "body").data;
}

export function parseAccount(body: unknown): ProviderAccount {
  const data = object(dataOf(body), "account");
  const card = data.card && typeof data.card === "object" ? (data.card as Json) : {};
  return {
    puuid: string(data, "puuid"),
    region: (optionalString(data, "region") ?? "").toLowerCase(),
    account_level: optionalInteger(data, "account_level") ?? 0,
    name: string(data, "name"),
    tag: string(data, "tag"),
    card: {
      small: optionalString(card, "small") ?? "",
      large: optionalString(card, "large") ?? "",
      wide: optionalString(card, "wide") ?? "",
    },
    last_update: optionalString(data, "last_update") ?? "",
  };
}

export function parseMmr(body: unknown): ProviderMmr {
  const data = object(dataOf(body), "rank data");
  const current = object(data.current_data, "current_data");
  const images = current.images && typeof current.images === "object" ? (current.images as Json) : {};
  return {
    currenttier: optionalInteger(current, "currenttier"),
    // The provider's own examples also spell it with an underscore (reference §2.3).
    currenttierpatched:
      optionalString(current, "currenttierpatched") ?? optionalString(current, "currenttier_patched"),
    ranking_in_tier: optionalInteger(current, "ranking_in_tier"),
    mmr_change_to_last_game: optionalInteger(current, "mmr_change_to_last_game"),
    elo: optionalInteger(current, "elo"),
    image: optionalString(images, "small") ?? optionalString(images, "large"),
  };
}

export function parseMmrHistory(body: unknown): ProviderMmrHistoryEntry[] {
  const data = dataOf(body);
  if (!Array.isArray(data)) throw malformed("rank history");
  return data.map((item) => {
    const entry = object(item, "rank history entry");
    return {
      match_id: string(entry, "match_id"),
      mmr_change_to_last_game: optionalInteger(entry, "mmr_change_to_last_game") ?? 0,
      elo: optionalInteger(entry, "elo"),
      date_raw: integer(entry, "date_raw"),
    };
  });
}

export function parseMatches(body: unknown): ProviderMatch[] {
  const data = dataOf(body);
  if (!Array.isArray(data)) throw malformed("match list");
  const matches: ProviderMatch[] = [];
  for (const item of data) {
    const match = parseMatch(item);
    if (match) matches.push(match);
  }
  return matches;
}

/** A list item the provider could not load (`is_available: false`, null parts) is skipped, not fatal. */
function parseMatch(item: unknown): ProviderMatch | null {
  if (!item || typeof item !== "object") return null;
  const raw = item as Json;
  if (raw.is_available === false) return null;
  if (!raw.metadata || !raw.players || !raw.teams) return null;
  const metadata = object(raw.metadata, "match metadata");
  const players = object(raw.players, "match players");
  const teams = object(raw.teams, "match teams");
  if (!Array.isArray(players.all_players)) return null;
  return {
    matchid: string(metadata, "matchid"),
    map: optionalString(metadata, "map") ?? "an unknown map",
    mode: optionalString(metadata, "mode") ?? optionalString(metadata, "mode_id") ?? "",
    game_start: optionalInteger(metadata, "game_start") ?? 0,
    region: optionalString(metadata, "region") ?? "",
    players: players.all_players.map(parsePlayer),
    teams: { red: parseTeam(teams.red), blue: parseTeam(teams.blue) },
  };
}

function parsePlayer(item: unknown): ProviderMatchPlayer {
  const player = object(item, "match player");
  const stats = player.stats && typeof player.stats === "object" ? (player.stats as Json) : {};
  const team = (optionalString(player, "team") ?? "").toLowerCase();
  return {
    puuid: optionalString(player, "puuid") ?? "",
    name: optionalString(player, "name") ?? "",
    tag: optionalString(player, "tag") ?? "",
    team: team === "red" || team === "blue" ? team : null,
    character: optionalString(player, "character") ?? "",
    kills: optionalInteger(stats, "kills") ?? 0,
    deaths: optionalInteger(stats, "deaths") ?? 0,
    assists: optionalInteger(stats, "assists") ?? 0,
    headshots: optionalInteger(stats, "headshots") ?? 0,
    bodyshots: optionalInteger(stats, "bodyshots") ?? 0,
    legshots: optionalInteger(stats, "legshots") ?? 0,
  };
}

function parseTeam(value: unknown): ProviderTeam {
  const team = value && typeof value === "object" ? (value as Json) : {};
  return {
    has_won: typeof team.has_won === "boolean" ? team.has_won : null,
    rounds_won: optionalInteger(team, "rounds_won"),
  };
}
