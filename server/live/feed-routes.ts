import { SeenMessages } from "./dedupe.ts";
import type { LiveFeed, NotificationFrame, RevocationFrame } from "./feed.ts";

/**
 * Which feeds of one session receive a frame: by subscription type, then by channel, two map looks
 * and no allocation per notification (the hot path of every chat command). Each message id is acted
 * on once per session (Twitch delivers at least once; live/dedupe.ts).
 */
export class FeedRoutes {
  readonly feeds = new Set<LiveFeed>();
  readonly #byType = new Map<string, Map<string, LiveFeed[]>>();
  readonly #seen: SeenMessages;

  constructor(now: () => number) {
    this.#seen = new SeenMessages(now);
  }

  add(feed: LiveFeed): void {
    if (this.feeds.has(feed)) return;
    this.feeds.add(feed);
    for (const type of feed.types) {
      let channels = this.#byType.get(type);
      if (!channels) {
        channels = new Map();
        this.#byType.set(type, channels);
      }
      const list = channels.get(feed.broadcasterId);
      if (list) list.push(feed);
      else channels.set(feed.broadcasterId, [feed]);
    }
  }

  remove(feed: LiveFeed): void {
    if (!this.feeds.delete(feed)) return;
    for (const type of feed.types) {
      const channels = this.#byType.get(type);
      const left = channels?.get(feed.broadcasterId)?.filter((f) => f !== feed);
      if (!channels || !left) continue;
      if (left.length > 0) channels.set(feed.broadcasterId, left);
      else channels.delete(feed.broadcasterId);
      if (channels.size === 0) this.#byType.delete(type);
    }
  }

  /** Hands a notification to the feeds of its type and channel, unless its id was seen already. */
  deliver(frame: NotificationFrame): void {
    const feeds = this.#byType.get(frame.subscriptionType)?.get(frame.broadcasterId);
    if (!feeds || !this.#seen.admit(frame.id, frame.at)) return;
    for (let i = 0; i < feeds.length; i++) feeds[i]?.notification(frame);
  }

  /** The feeds a revocation concerns: its type's for its channel, or every channel's when it names none. */
  revokedFeeds(frame: RevocationFrame): LiveFeed[] {
    const channels = this.#byType.get(frame.subscriptionType);
    if (!channels) return [];
    if (frame.broadcasterId === "") return [...channels.values()].flat();
    return [...(channels.get(frame.broadcasterId) ?? [])];
  }
}
