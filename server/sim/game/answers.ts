import type { SeedPlayer } from "./players.ts";

/**
 * The game provider's answer bodies (reference/game-provider.md §1.4): a top-level `status` on
 * success and failure, v4 `errors[]` entries on failure, and the failures it gives when Riot has trouble.
 */

/** Failures the simulator can be told to answer with, as the provider does when Riot has trouble. */
export type SimFailure = 403 | 408 | 429 | 500 | 503;

export const FAILURE_MESSAGES: Record<SimFailure, { code: number; message: string }> = {
  403: { code: 0, message: "Forbidden to connect to Riot (maintenance)" },
  408: {
    code: 0,
    message: "A needed fetch request timed out three times, request will be terminated, please try again",
  },
  429: { code: 0, message: "Rate Limited" },
  500: { code: 1, message: "Internal error" },
  503: { code: 0, message: "Riot Origin Server is not reachable" },
};

/** Both error shapes at once: a top-level `status` and v4 `errors[]` entries (reference §1.4). */
export function errorJson(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
) {
  const entry: Record<string, unknown> = { code, message, status, details: null };
  if (status === 429) entry.global = false;
  return Response.json({ status, errors: [entry] }, { status, headers });
}

/** A 200 with the provider's top-level `status`. */
export const okJson = (body: object, headers: Record<string, string>) =>
  Response.json({ status: 200, ...body }, { headers });

/** What a resource answers from: the player asked for, where the route was asked, and the rate headers. */
export interface PlayerRequest {
  player: SeedPlayer;
  url: URL;
  headers: Record<string, string>;
  /** The route's region is on the player's shard (or the route has none). */
  rightShard: boolean;
  now: number;
  /** The instant match times are relative to (options.anchor in server.ts). */
  anchor(): number;
}
