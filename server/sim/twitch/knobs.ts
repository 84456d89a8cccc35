import type { Clock } from "../../core/clock.ts";
import { HelixBuckets } from "./helix/buckets.ts";

/** Knobs tests turn to provoke the provider's failure modes. */
export interface TwitchSimKnobs {
  /** Approve authorize requests at once as this login (tests); null shows a consent page. */
  autoApproveAs: string | null;
  /** The user presses "Deny" (redirect with error=access_denied). */
  deny: boolean;
  /** Every endpoint answers 503 (the provider is down). */
  down: boolean;
  /** The next refresh-token grants fail with 400 Invalid refresh token. */
  failRefresh: boolean;
  /** Added to every response, in ms. */
  latencyMs: number;
  /**
   * Added to one Helix route's responses, in ms, on top of `latencyMs`; keyed like
   * `"POST /clips"` (method, space, Helix path without /helix). Provokes client timeouts.
   */
  routeLatencyMs: Map<string, number>;
  /**
   * Helix rate-limit buckets, one per (client id, user): `limit` is each bucket's size; setting
   * `remaining` leaves that many points in every bucket until the refill (helix/buckets.ts). Every
   * Helix request that passes authentication costs 1 point of its caller's bucket; at 0 the answer is
   * 429. Buckets fill up again when the clock reaches the time sent in `Ratelimit-Reset` (a minute
   * after the window began), so with a ManualClock they stay empty until the test advances the clock.
   */
  readonly rateLimit: HelixBuckets;
  /**
   * The next `times` authenticated calls of a Helix route (key like `"POST /clips"`) answer
   * `status` with a Helix error body; the entry is removed when used up.
   */
  failNext: Map<string, SimFailure>;
}

/** An injected Helix failure (see `TwitchSimKnobs.failNext`). */
export interface SimFailure {
  /** 409, 429, 500, 502 and 503 are the realistic ones (reference §2.0, §2.3, §2.9). */
  status: number;
  /** How many calls fail; 1 if omitted. */
  times?: number;
  /** Overrides the realistic default message for `status`. */
  message?: string;
}

export function newTwitchSimKnobs(clock: Clock): TwitchSimKnobs {
  return {
    autoApproveAs: null,
    deny: false,
    down: false,
    failRefresh: false,
    latencyMs: 0,
    routeLatencyMs: new Map(),
    rateLimit: new HelixBuckets(clock, 800),
    failNext: new Map(),
  };
}
