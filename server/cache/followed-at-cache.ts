import type { Role } from "../../db/schema-enums.ts";
import type { Clock } from "../core/clock.ts";
import { andThen, type MaybePromise } from "../core/maybe-promise.ts";

/** What is worth caching about a follow: the facts, never the elapsed time. */
export interface FollowFacts {
  following: boolean;
  /** Unix ms of the follow, or null when not following. */
  followedAt: number | null;
}

export interface Followage extends FollowFacts {
  /** Time since the follow, as of this request (null when not following). */
  elapsedMs: number | null;
}

/** What the follow dates are kept in: a role-aware cache (RoleCache), named here by what is used. */
export interface FollowFactsStore {
  getOrLoad(key: string, role: Role, load: () => Promise<FollowFacts>): MaybePromise<FollowFacts>;
}

/**
 * Followage caches the follow date, not the answer: a cached "3 minutes" would be wrong a minute
 * later, so the elapsed time is recomputed from the date on every hit (service doc §8.1.3). Lifetime
 * is the channel owner's command cache TTL.
 */
export class FollowedAtCache {
  constructor(
    private readonly cache: FollowFactsStore,
    private readonly clock: Clock,
  ) {}

  /** `channelId` is the channel's platform id; `user` is compared case-insensitively. */
  followage(
    channelId: string,
    user: string,
    ownerRole: Role,
    load: () => Promise<FollowFacts>,
  ): MaybePromise<Followage> {
    return andThen(this.cache.getOrLoad(`${channelId}:${user.toLowerCase()}`, ownerRole, load), (facts) => {
      const elapsedMs = facts.followedAt === null ? null : Math.max(0, this.clock.now() - facts.followedAt);
      return { ...facts, elapsedMs };
    });
  }
}
