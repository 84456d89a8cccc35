import type { Clock } from "../../../core/clock.ts";
import type { SimWorld } from "../world.ts";

/**
 * The shape of a simulated Helix endpoint. Authentication (Client-Id, Bearer, expiry), the rate-limit
 * bucket and the failure knobs live in middleware.ts; a route declares whether it needs a user token
 * and which scopes it accepts, and its handler does the rest: parameter checks (400), identity checks
 * (401/403), state rules and paging.
 */

/** The caller, as the auth middleware resolved it from the bearer token. */
export interface HelixCaller {
  /** null for an app access token. */
  userId: string | null;
  scopes: readonly string[];
}

export interface HelixCall {
  request: Request;
  url: URL;
  query: URLSearchParams;
  caller: HelixCaller;
}

export interface HelixRoute {
  /** App access tokens are refused with 401 (the endpoint documents "requires a user access token"). */
  userToken: boolean;
  /**
   * Any one of these scopes is enough (Twitch documents e.g. "moderation:read or
   * channel:manage:moderators"); empty = no scope needed. Checked by the middleware after the token.
   */
  scopes: readonly string[];
  handle(call: HelixCall): Response | Promise<Response>;
}

/** A resource's routes, keyed like `"POST /clips"` (method, space, Helix path without /helix). */
export type HelixRouteList = [key: string, route: HelixRoute][];

/** Mutable simulator state that is not part of the seeded world: cooldown clocks, id counters. */
export interface HelixState {
  /** from_broadcaster_id → when it last sent a Shoutout (ms). */
  shoutoutSentAt: Map<string, number>;
  /** "from>to" → when `from` last shouted out `to` (ms). */
  shoutoutPairAt: Map<string, number>;
  /** Streams started by setLive get ids from here. */
  nextStreamId: number;
}

export function newHelixState(): HelixState {
  return { shoutoutSentAt: new Map(), shoutoutPairAt: new Map(), nextStreamId: 4_000_000_100 };
}

export interface HelixEnvironment {
  world: SimWorld;
  clock: Clock;
  state: HelixState;
  /** A timeout or ban was placed: the chat clears the chatter's lines (../chat/moderation.ts). */
  onBan(broadcasterId: string, userId: string): void;
}
