import type { LiveFeed, NotificationFrame, SubscribeOutcome } from "../live/feed.ts";
import type { LiveSessions } from "../live/sessions.ts";
import type { Channel, ChatChannels } from "./channels.ts";

/** The one subscription chat reads a channel with (reference/twitch-chat.md §3). */
export const CHAT_MESSAGE = "channel.chat.message";

const REFUSED =
  "Twitch refused reading this chat: allow cuebot to read chat again (or the reading account is banned there).";

/**
 * Reading chat: each channel is a feed on the live session of its speaker (live/sessions.ts: the bot
 * account's, shared by every channel it reads, or the streamer's, shared with their alerts),
 * subscribed to channel.chat.message as the speaker. Messages go to `onNotification`
 * (chat/dispatch.ts); a revoked subscription or a refused grant shows as `needs_consent` and the
 * channel is let go.
 */
export class ChatReaders {
  constructor(
    private readonly channels: ChatChannels,
    private readonly live: LiveSessions,
    private readonly onNotification: (channel: Channel, frame: NotificationFrame) => void,
  ) {}

  /** Reads the channel on its speaker's session: subscribes now when the session is welcomed. */
  attach(channel: Channel): void {
    const feed = this.#feedOf(channel);
    channel.connection = feed;
    this.channels.setState(channel, "connecting");
    this.live.join(feed).catch((error: unknown) => {
      this.channels.setState(channel, "error", `Subscribing to chat failed: ${(error as Error).message}`);
    });
  }

  /** Stops reading the channel; a session left reading nothing closes. */
  detach(channel: Channel): void {
    const feed = channel.connection;
    channel.connection = null;
    if (feed) this.live.leave(feed);
  }

  #feedOf(channel: Channel): LiveFeed {
    const { channels } = this;
    const subscription = {
      type: CHAT_MESSAGE,
      version: "1",
      condition: { broadcaster_user_id: channel.broadcasterId, user_id: channel.speaker.userId },
    };
    const letGo = (reason: string) => {
      channels.setState(channel, "needs_consent", reason);
      channel.connection = null;
      return false;
    };
    return {
      holder: channel,
      broadcasterId: channel.broadcasterId,
      types: [CHAT_MESSAGE],
      wanted: async () => [subscription],
      subscribed: ([outcome]: readonly SubscribeOutcome[]) => {
        if (outcome?.state === "connected") {
          channels.setState(channel, "connected");
          return true;
        }
        return letGo((outcome?.state === "gone" && outcome.reason) || REFUSED);
      },
      notification: (frame) => this.onNotification(channel, frame),
      revoked: (frame) =>
        letGo(`Twitch revoked cuebot's chat subscription (${frame.status}): allow it again.`),
      down: (reason, willRetry) => {
        if (channel.state !== "needs_consent")
          channels.setState(channel, willRetry ? "connecting" : "error", willRetry ? null : reason);
      },
    };
  }
}
