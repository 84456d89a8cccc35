/**
 * What keeps a flood of alerts (a follow bot wave, a gift train) from drowning the channel, per
 * streamer and in memory (pure; the caller passes the time): a follower seen again within
 * FOLLOW_REPEAT_MS is not a new alert (a follow/unfollow wave shows each follower once), and a type's
 * chat thanks line is sent at most once per THANKS_GAP_MS.
 */
import type { AlertType } from "./model.ts";

/** A repeat follow by the same user within this time is ignored. */
export const FOLLOW_REPEAT_MS = 12 * 60 * 60_000;
/** The shortest time between two thanks lines of one type. */
export const THANKS_GAP_MS = 10_000;
/** Followers remembered per channel (the oldest is forgotten first). */
export const FOLLOWERS_REMEMBERED = 5_000;

export class AlertFloodGuard {
  /** Follower user id → when the follow was last admitted; Map order is the admission order. */
  readonly #followers = new Map<string, number>();
  readonly #thanked = new Map<AlertType, number>();

  constructor(private readonly remembered = FOLLOWERS_REMEMBERED) {}

  /** True for a follower not seen within FOLLOW_REPEAT_MS (an unknown id is always admitted). */
  admitFollow(userId: string | null, at: number): boolean {
    if (userId === null || userId === "") return true;
    const last = this.#followers.get(userId);
    if (last !== undefined && at - last >= 0 && at - last < FOLLOW_REPEAT_MS) return false;
    this.#followers.delete(userId);
    this.#followers.set(userId, at);
    while (this.#followers.size > this.remembered) {
      const oldest = this.#followers.keys().next().value;
      if (oldest === undefined) break;
      this.#followers.delete(oldest);
    }
    return true;
  }

  /** True when no thanks line of `type` was sent within THANKS_GAP_MS; the caller then sends one. */
  admitThanks(type: AlertType, at: number): boolean {
    const last = this.#thanked.get(type);
    if (last !== undefined && at - last >= 0 && at - last < THANKS_GAP_MS) return false;
    this.#thanked.set(type, at);
    return true;
  }
}
