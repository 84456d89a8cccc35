import { writeChatState } from "../../db/chat.ts";
import type { LiveFeed } from "../live/feed.ts";
import type { Speaker } from "../live/speaker-tokens.ts";
import type { Context } from "../runtime.ts";
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

/**
 * The channels the manager holds, by account, and their states as the dashboard sees them. States are
 * stored in the order they happened, one after another; once closed, nothing more is reported.
 */
export class ChatChannels {
  readonly byAccount = new Map<number, Channel>();
  #closed = false;
  #writes: Promise<void> = Promise.resolve();

  constructor(private readonly ctx: Pick<Context, "db" | "log" | "clock">) {}

  get closed(): boolean {
    return this.#closed;
  }

  /** Nothing more is reported: another instance may hold chat now and write its own. */
  close(): void {
    this.#closed = true;
  }

  /** Settles once every state reported so far is stored (or failed to be). */
  get writes(): Promise<void> {
    return this.#writes;
  }

  /** Stores an account's state after those reported before it. */
  store(accountId: number, state: ChatState, reason: string | null, at: number): void {
    this.#writes = this.#writes
      .then(() => writeChatState(this.ctx.db, accountId, state, reason, at))
      .catch((error: unknown) => this.ctx.log.warn("could not store the chat state", { error }));
  }

  /** The channel's state changes (a change only when it differs), is stored and logged. */
  setState(channel: Channel, state: ChatState, reason: string | null = null): void {
    if (this.#closed) return;
    if (channel.state === state && channel.reason === reason) return;
    channel.state = state;
    channel.reason = reason;
    channel.since = this.ctx.clock.now();
    this.store(channel.accountId, state, reason, channel.since);
    this.ctx.log.info("chat state changed", {
      accountId: channel.accountId,
      state,
      ...(reason ? { reason } : {}),
    });
  }
}
