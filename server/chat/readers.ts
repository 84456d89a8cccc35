import type { Context } from "../runtime.ts";
import { HelixError } from "../twitch/helix-client.ts";
import type { Channel, ChatChannels, Reader } from "./channels.ts";
import { SeenMessages } from "./dedupe.ts";
import { EventSubConnection, StopConnection } from "./eventsub-connection.ts";
import type { EventSubFrame } from "./eventsub-message.ts";
import { AuthGone, type SpeakerTokens } from "./speaker-tokens.ts";

export type NotificationFrame = Extract<EventSubFrame, { type: "notification" }>;
type RevocationFrame = Extract<EventSubFrame, { type: "revocation" }>;

/**
 * Reading chat: one EventSub WebSocket per reading Twitch user (a bot account shared by several
 * channels reads them all on one socket, up to Twitch's 300 subscriptions per socket), each channel
 * subscribed on it once its session is welcomed. Messages go to `onNotification` (chat/dispatch.ts);
 * a revoked subscription or a refused grant shows as `needs_consent` and the channel is let go.
 */
export class ChatReaders {
  readonly #readers = new Map<string, Reader>();

  constructor(
    private readonly ctx: Pick<Context, "config" | "log" | "clock" | "helixApi">,
    private readonly channels: ChatChannels,
    private readonly tokens: SpeakerTokens,
    private readonly onNotification: (reader: Reader, frame: NotificationFrame) => void,
    /** One protocol "second" in ms (tests shorten it). */
    private readonly secondMs: number | undefined,
  ) {}

  /** Reads the channel on its speaker's socket: subscribes now when the socket has a session. */
  attach(channel: Channel): void {
    const reader = this.#readerFor(channel.speaker.userId);
    reader.channels.add(channel.accountId);
    channel.connection = reader;
    this.channels.setState(channel, "connecting");
    const sessionId = reader.connection.sessionId;
    if (sessionId) {
      this.#subscribe(channel, sessionId).catch((error: unknown) => {
        this.channels.setState(channel, "error", `Subscribing to chat failed: ${(error as Error).message}`);
      });
    } else reader.connection.start();
  }

  /** Stops reading the channel; a socket left reading nothing closes. */
  detach(channel: Channel): void {
    const reader = channel.connection;
    channel.connection = null;
    if (!reader) return;
    reader.channels.delete(channel.accountId);
    if (reader.channels.size === 0) {
      reader.connection.stop();
      this.#readers.delete(reader.userId);
    }
  }

  async #subscribe(channel: Channel, sessionId: string): Promise<void> {
    const helix = this.ctx.helixApi;
    if (!helix) throw new AuthGone("Twitch is not configured on this server.");
    try {
      await this.tokens.withToken(channel, (token) =>
        helix.subscribeChat(token, sessionId, {
          broadcasterId: channel.broadcasterId,
          userId: channel.speaker.userId,
        }),
      );
      this.channels.setState(channel, "connected");
    } catch (error) {
      if (error instanceof HelixError && error.status === 409) {
        this.channels.setState(channel, "connected");
        return;
      }
      if (error instanceof AuthGone) {
        this.channels.setState(channel, "needs_consent", error.message);
        this.detach(channel);
        return;
      }
      if (error instanceof HelixError && (error.status === 401 || error.status === 403)) {
        this.channels.setState(
          channel,
          "needs_consent",
          "Twitch refused reading this chat: allow cuebot to read chat again (or the reading account is banned there).",
        );
        this.detach(channel);
        return;
      }
      throw error;
    }
  }

  #readerFor(userId: string): Reader {
    const existing = this.#readers.get(userId);
    if (existing) return existing;
    const { channels } = this;
    const reader: Reader = {
      userId,
      channels: new Set(),
      seen: new SeenMessages(() => this.ctx.clock.now()),
      connection: new EventSubConnection({
        url: this.ctx.config.twitch.eventsubUrl,
        secondMs: this.secondMs,
        log: this.ctx.log,
        handlers: {
          onWelcome: async (sessionId) => {
            const list = [...reader.channels]
              .map((id) => channels.byAccount.get(id))
              .filter((c): c is Channel => c !== undefined);
            const results = await Promise.allSettled(list.map((c) => this.#subscribe(c, sessionId)));
            const failed = results.find((r) => r.status === "rejected");
            if (reader.channels.size === 0)
              throw new StopConnection("no channel left to read on this connection");
            if (failed) throw (failed as PromiseRejectedResult).reason;
          },
          onFrame: (frame) => {
            if (frame.type === "revocation") this.#revoked(reader, frame);
            else this.onNotification(reader, frame);
          },
          onDown: (reason, willRetry) => {
            for (const id of reader.channels) {
              const channel = channels.byAccount.get(id);
              if (channel && channel.state !== "needs_consent")
                channels.setState(channel, willRetry ? "connecting" : "error", willRetry ? null : reason);
            }
            if (!willRetry) this.#readers.delete(userId);
          },
        },
      }),
    };
    this.#readers.set(userId, reader);
    return reader;
  }

  #revoked(reader: Reader, frame: RevocationFrame): void {
    for (const id of reader.channels) {
      const channel = this.channels.byAccount.get(id);
      if (channel && (frame.broadcasterId === "" || frame.broadcasterId === channel.broadcasterId)) {
        this.channels.setState(
          channel,
          "needs_consent",
          `Twitch revoked cuebot's chat subscription (${frame.status}): allow it again.`,
        );
        this.detach(channel);
      }
    }
  }
}
