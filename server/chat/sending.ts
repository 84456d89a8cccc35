import type { Account } from "../../db/accounts.ts";
import { REPLY_DROPPED } from "../../db/events.ts";
import type { Context } from "../runtime.ts";
import { HelixError } from "../twitch/helix-client.ts";
import type { Channel, Speaker } from "./channels.ts";
import { OwnLines } from "./own-lines.ts";
import { ChannelSendQueue, type QueuedReply } from "./send-queue.ts";
import type { SpeakerTokens } from "./speaker-tokens.ts";

/**
 * A new channel for the account, read by nobody yet, whose replies go out through Helix Send Chat
 * Message with the speaker's token, at the pace Twitch allows (chat/send-queue.ts). A reply that is
 * not delivered is logged and counted in the account's events.
 */
export function openChannel(
  ctx: Pick<Context, "clock" | "log" | "events" | "helixApi">,
  tokens: SpeakerTokens,
  account: Account,
  speaker: Speaker,
): Channel {
  const now = () => ctx.clock.now();
  const helix = ctx.helixApi;
  const channel: Channel = {
    accountId: account.id,
    broadcasterId: account.twitchUserId,
    speaker,
    state: "off",
    since: now(),
    reason: null,
    connection: null,
    ownLines: new OwnLines(now),
    queue: new ChannelSendQueue({
      now,
      async send(text, replyTo) {
        if (!helix) throw new HelixError(null, "Twitch is not configured on this server.");
        // Remembered before the call: its echo may arrive before Helix answers.
        const own = channel.ownLines.sending(text);
        try {
          const result = await tokens.withToken(channel, (token) =>
            helix.sendChatMessage(token, {
              broadcasterId: channel.broadcasterId,
              senderId: channel.speaker.userId,
              text,
              replyParentMessageId: replyTo,
            }),
          );
          own.sent(result.message_id, result.is_sent);
          return { isSent: result.is_sent, dropReason: result.drop_reason };
        } catch (error) {
          own.failed();
          throw error;
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
        });
      },
    }),
  };
  // The streamer speaks in their own channel: always privileged.
  channel.queue.privileged = speaker.kind === "streamer";
  return channel;
}
