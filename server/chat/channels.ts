import { writeChatState } from "../../db/chat.ts";
import { ConnectionStates } from "../live/connection-states.ts";
import type { LiveFeed, Speaker } from "../live/feed.ts";
import type { ChatContext } from "./context.ts";
import type { OwnLines } from "./own-lines.ts";
import type { ChannelSendQueue } from "./send-queue.ts";
import type { ChatState } from "./status.ts";

export type { Speaker };

/** One account's chat as the running manager holds it (server/chat/manager.ts). */
export interface Channel {
  accountId: number;
  broadcasterId: string;
  speaker: Speaker;
  state: ChatState;
  since: number;
  reason: string | null;
  /** Replies waiting for their turn under Twitch's sending limits (chat/sending.ts). */
  queue: ChannelSendQueue;
  /**
   * What this speaker's queues sent lately, so their echoes are known as cuebot's own
   * (chat/own-lines.ts); the manager keeps it across reopens of the account's channel.
   */
  ownLines: OwnLines;
  /** The channel's feed on its speaker's live session, or null while none reads it (chat/readers.ts). */
  connection: LiveFeed | null;
}

/** The channels the manager holds, by account, and their states (live/connection-states.ts). */
export class ChatChannels extends ConnectionStates {
  readonly byAccount = new Map<number, Channel>();

  constructor(ctx: Pick<ChatContext, "db" | "log" | "clock">) {
    super(ctx, { name: "chat", write: writeChatState });
  }
}
