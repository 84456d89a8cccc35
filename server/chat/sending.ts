import type { Account } from "../../db/accounts.ts";
import { REPLY_DROPPED } from "../../db/events.ts";
import type { SpeakerTokens } from "../live/speaker-tokens.ts";
import { HelixError } from "../twitch/helix-client.ts";
import type { Channel, Speaker } from "./channels.ts";
import type { ChatContext } from "./context.ts";
import { OwnLines } from "./own-lines.ts";
import { ChannelSendQueue, type QueuedReply } from "./send-queue.ts";

/** What a channel knows of the lines it sends, kept by the manager across reopens. */
export interface SentLines {
  /** The account's lines lately sent as this speaker (chat/own-lines.ts). */
  ownLines: OwnLines;
  /**
   * Several instances: claims a message id as incoming messages are claimed (chat/leader.ts), so
   * no instance answers the echo of a line this one sent.
   */
  claimMessage?: (messageId: string) => Promise<boolean>;
}

/** A send that failed may still have posted, unless Twitch refused it (a 4xx, a 429 included). */
function mayHavePosted(error: unknown): boolean {
  const status = error instanceof HelixError ? error.status : null;
  return status === null || status < 400 || status >= 500;
}

/** Twitch's 400 for a reply to a deleted line, or to one cleared by a timeout or ban (moderation.md §0). */
const unrepliable = (error: unknown) =>
  error instanceof HelixError && error.status === 400 && /cannot be replied to/i.test(error.message);

/** The echo of a line sent is claimed, so another instance reading it (leader overlap) leaves it. */
function claimOwnEcho(ctx: Pick<ChatContext, "log">, sent: SentLines, messageId: string): void {
  void sent
    .claimMessage?.(messageId)
    .catch((error: unknown) =>
      ctx.log.warn("could not claim the echo of a line cuebot sent", { messageId, error }),
    );
}

/**
 * A new channel for the account, read by nobody yet, whose replies go out through Helix Send Chat
 * Message with the speaker's token, at the pace Twitch allows (chat/send-queue.ts). A reply that is
 * not delivered is logged and counted in the account's events. What it sends is remembered in
 * `sent.ownLines` (the manager's, which outlive the channel; a fresh one by default), and claimed
 * where instances share Redis.
 */
export function openChannel(
  ctx: Pick<ChatContext, "clock" | "log" | "events" | "helixApi">,
  tokens: SpeakerTokens,
  account: Account,
  speaker: Speaker,
  sent: SentLines = { ownLines: new OwnLines(() => ctx.clock.now()) },
): Channel {
  const now = () => ctx.clock.now();
  const helix = ctx.helixApi;
  /** One Send Chat Message call, remembered among the channel's own lines. */
  const post = async (text: string, replyTo: string) => {
    if (!helix) throw new HelixError(null, "Twitch is not configured on this server.");
    // Remembered before the call: its echo may arrive before Helix answers.
    const own = channel.ownLines.sending(text, replyTo);
    try {
      // The token read within the last minute will do: a reply needs no store read (issue 26).
      const result = await tokens.withToken(
        channel,
        (token) =>
          helix.sendChatMessage(token, {
            broadcasterId: channel.broadcasterId,
            senderId: channel.speaker.userId,
            text,
            replyParentMessageId: replyTo,
          }),
        { held: true },
      );
      own.sent(result.message_id, result.is_sent);
      if (result.is_sent && result.message_id) claimOwnEcho(ctx, sent, result.message_id);
      return { isSent: result.is_sent, dropReason: result.drop_reason };
    } catch (error) {
      own.failed(mayHavePosted(error));
      throw error;
    }
  };
  const channel: Channel = {
    accountId: account.id,
    broadcasterId: account.twitchUserId,
    speaker,
    state: "off",
    since: now(),
    reason: null,
    connection: null,
    ownLines: sent.ownLines,
    queue: new ChannelSendQueue({
      now,
      async send(text, replyTo) {
        try {
          return await post(text, replyTo);
        } catch (error) {
          if (!replyTo || !unrepliable(error)) throw error;
          // The line replied to was removed by a moderator (deleted, or its chatter timed out, as a
          // roulette loser is): Twitch refuses the reply, so the line goes out on its own.
          return await post(text, "");
        }
      },
      onDropped(reply: QueuedReply, code: string, message: string) {
        ctx.log.info("a chat reply was not delivered", { accountId: account.id, code, message });
        ctx.events.record({
          accountId: account.id,
          at: now(),
          command: reply.command,
          caller: reply.caller.slice(0, 50),
          outcome: `${REPLY_DROPPED}:${code}`,
          latencyMs: 0,
          test: false,
          refused: null,
        });
      },
    }),
  };
  // The streamer speaks in their own channel: always privileged.
  channel.queue.privileged = speaker.kind === "streamer";
  return channel;
}
