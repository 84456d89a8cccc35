import { echoablePlayer } from "../core/chat-echo.ts";
import { ApiError } from "../core/errors.ts";
import { BudgetRefusal } from "./budget.ts";
import { type ProviderAccount, shardOf } from "./client.ts";
import type { PlayerQuery } from "./player.ts";
import type { ProviderError } from "./provider-error.ts";

/**
 * The sentences a failed game lookup answers with (CONTRACT §5, §6): a player that does not exist or
 * has no data, and the provider's own trouble, which the game API documents as a 500.
 */

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

export function noRankedData(q: PlayerQuery, account: ProviderAccount | null): ApiError {
  return playerNotFound(`${displayId(q, account)} has no ranked data${regionPhrase(q, account)}.`);
}

export function noCompetitiveMatches(q: PlayerQuery, account: ProviderAccount): ApiError {
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
