import type { EventSubFrame } from "./eventsub-message.ts";

/** Who reads and speaks for a channel: the streamer, or the linked bot account. */
export interface Speaker {
  kind: "streamer" | "bot";
  userId: string;
}

/** Whose token: the account and who speaks for it (a chat channel, or the alerts' streamer). */
export interface TokenHolder {
  accountId: number;
  speaker: Speaker;
}

export type NotificationFrame = Extract<EventSubFrame, { type: "notification" }>;
export type RevocationFrame = Extract<EventSubFrame, { type: "revocation" }>;

/** One EventSub subscription a feature asks for (Twitch's type, version and condition). */
export interface LiveSubscription {
  type: string;
  version: string;
  condition: Readonly<Record<string, string>>;
}

/**
 * How one subscription went on a session: `connected`; `refused` (Twitch answered 403: a scope or
 * a permission is missing); `gone` (the reading user's grant is gone: a 401 a fresh token did not
 * cure, or no token at all; `reason` says what the streamer must do, or null for the feature's words).
 */
export type SubscribeOutcome =
  | { subscription: LiveSubscription; state: "connected" | "refused" }
  | { subscription: LiveSubscription; state: "gone"; reason: string | null };

/**
 * A feature's registration for one channel (live/sessions.ts): whose token reads (its Twitch user
 * picks the session, shared by every feed of that user), which channel and event types it receives,
 * what to subscribe, and its listener. Returning false from `subscribed` or `revoked` lets the feed
 * go (nothing more is delivered to it; the session closes when no feed is left).
 */
export interface LiveFeed {
  readonly holder: TokenHolder;
  /** The channel whose events this feed receives (the subscriptions' broadcaster). */
  readonly broadcasterId: string;
  /** Every subscription type this feed may receive: notifications of these types for its channel. */
  readonly types: readonly string[];
  /** What to subscribe now: on each new session (not a handover), and when joining a running one. */
  wanted(): Promise<readonly LiveSubscription[]>;
  /** One outcome per wanted subscription, in order; false: let the feed go. */
  subscribed(outcomes: readonly SubscribeOutcome[]): boolean;
  /** A notification for this channel and one of `types`, seen for the first time on this session. */
  notification(frame: NotificationFrame): void;
  /** Twitch revoked one of its subscriptions; false: let the feed go. */
  revoked(frame: RevocationFrame): boolean;
  /** The session is down and reconnects (willRetry), or stopped: the feed is let go then. */
  down(reason: string, willRetry: boolean): void;
}
