import type { LiveFeed, LiveSubscription, NotificationFrame, TokenHolder } from "./feed.ts";

/** Whether a channel is live, as the last stream.online / stream.offline said. */
export interface StreamState {
  live: boolean;
  /** When the stream began (online), or when it was heard to end (offline), Unix ms. */
  since: number;
  /** When this instance heard it (Unix ms): a heard "online" is trusted over Helix only for a while. */
  heardAt: number;
}

export const STREAM_ONLINE = "stream.online";
export const STREAM_OFFLINE = "stream.offline";

/** The live state's subscriptions: no scope, the channel's own condition. */
function streamSubscriptions(broadcasterId: string): LiveSubscription[] {
  const condition = { broadcaster_user_id: broadcasterId };
  return [
    { type: STREAM_ONLINE, version: "1", condition },
    { type: STREAM_OFFLINE, version: "1", condition },
  ];
}

/** An RFC 3339 time of Twitch's, or null when it is not one. */
function timestamp(value: unknown): number | null {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return null;
  const at = Date.parse(value);
  return Number.isFinite(at) ? at : null;
}

/** A stream.online or stream.offline notification read (null: another channel's, or not one). */
export function readStreamEvent(
  frame: Pick<NotificationFrame, "subscriptionType" | "raw" | "at">,
  broadcasterId: string,
): { live: boolean; since: number } | null {
  const online = frame.subscriptionType === STREAM_ONLINE;
  if (!online && frame.subscriptionType !== STREAM_OFFLINE) return null;
  const event =
    typeof frame.raw === "object" && frame.raw !== null ? (frame.raw as Record<string, unknown>) : {};
  if (event.broadcaster_user_id !== undefined && event.broadcaster_user_id !== broadcasterId) return null;
  return { live: online, since: (online ? timestamp(event.started_at) : null) ?? frame.at };
}

/**
 * Whether each channel is live, known once for every feature (timers, the dashboard): heard over
 * stream.online/offline on the channel owner's own live session, when they have one (their chat read
 * as themselves, or their alerts: live/sessions.ts adds this feed beside them; a channel read only
 * by a bot account is not heard, and its readers ask Helix). Forgotten while the session is down or
 * starts afresh: a stream.offline may have been missed.
 */
export class StreamStates {
  readonly #byAccount = new Map<number, StreamState>();

  constructor(
    private readonly now: () => number,
    /** Told each change (null: not known any more), for the `streamChanged` hook. */
    private readonly changed: (accountId: number, state: StreamState | null) => void = () => {},
  ) {}

  /** The channel's live state as last heard, or null (none heard, or not known now). */
  get(accountId: number): StreamState | null {
    return this.#byAccount.get(accountId) ?? null;
  }

  /** The feed that listens for the channel's stream going online or offline. */
  feedFor(holder: TokenHolder, broadcasterId: string): LiveFeed {
    const { accountId } = holder;
    const forget = () => this.forget(accountId);
    return {
      holder,
      broadcasterId,
      types: [STREAM_ONLINE, STREAM_OFFLINE],
      wanted: async () => {
        forget();
        return streamSubscriptions(broadcasterId);
      },
      // A refusal only means the live state is not heard: whoever needs it asks Helix.
      subscribed: () => true,
      notification: (frame) => {
        const heard = readStreamEvent(frame, broadcasterId);
        if (!heard) return;
        const state = { ...heard, heardAt: this.now() };
        this.#byAccount.set(accountId, state);
        this.changed(accountId, state);
      },
      revoked: () => {
        forget();
        return true;
      },
      down: forget,
    };
  }

  /** The channel is read by no feed of its owner's any more. */
  forget(accountId: number): void {
    if (this.#byAccount.delete(accountId)) this.changed(accountId, null);
  }
}
