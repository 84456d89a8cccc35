import { randomUUID } from "node:crypto";
import { CHAT_MESSAGE_TYPE } from "../eventsub/state.ts";
import type { SimUser } from "../world.ts";
import { badgesOf, byLogin, chatter, type SimBadge } from "./chatters.ts";
import { type Fragment, fragments, onlyEmotes } from "./fragments.ts";
import { banRefusal, modeRefusal, REFUSAL_TEXT } from "./room.ts";
import type { ChatState, SimChatLine } from "./state.ts";

/**
 * A channel's chat lines: typed by (injected) users or sent through the API, kept per channel, and
 * echoed to EventSub subscribers as `channel.chat.message` (reference/twitch-chat.md §3.2, §7.1).
 */

export interface SayInput {
  channel: string;
  user: string;
  text: string;
  badges?: SimBadge[];
  replyParentMessageId?: string;
  /** Emote codes (e.g. "Kappa"): the words of `text` equal to one become `emote` fragments. */
  emotes?: string[];
  /** Shared Chat: the login of the channel the line was typed in (the `source_*` fields). */
  sourceChannel?: string;
  /** Shared Chat: the chatter's badges in the source channel (default: their badges there). */
  sourceBadges?: SimBadge[];
  /** Shared Chat: the line is shown in the source channel only (`is_source_only`). */
  sourceOnly?: boolean;
}

/** A line the room refused, with Twitch's NOTICE id (msg_followersonly, msg_timedout, …). */
export interface SimRefusal {
  code: string;
  message: string;
}

/** What `trySay` gives: the new line's id, or why the room refused it (nothing was delivered). */
export type SayResult = { messageId: string; refused: null } | { messageId: null; refused: SimRefusal };

/** Thrown by `say` when the room refuses the line; `code` is Twitch's NOTICE id. */
export class ChatRefusedError extends Error {
  constructor(readonly code: string) {
    super(`${code}: ${REFUSAL_TEXT[code] ?? code}`);
    this.name = "ChatRefusedError";
  }
}

interface DeliverOptions {
  badges?: SimBadge[];
  replyParentMessageId?: string | null;
  source: "injected" | "sent";
  at?: number;
  emotes?: readonly string[];
  shared?: SharedSource;
}

/** Where a Shared Chat line came from. */
interface SharedSource {
  channel: SimUser;
  badges: SimBadge[];
  only: boolean;
}

const MAX_LINES = 500;

/** The event's `cheer`: the bits of its cheermotes, or null when it has none (reference §3.2). */
function cheerOf(parts: Fragment[]) {
  const bits = parts.reduce((sum, f) => sum + (f.cheermote?.bits ?? 0), 0);
  return bits > 0 ? { bits } : null;
}

/** The Shared Chat fields of `channel.chat.message`: all null for a line typed in this channel. */
const sharedFields = (shared: SharedSource | undefined) => ({
  source_broadcaster_user_id: shared?.channel.id ?? null,
  source_broadcaster_user_login: shared?.channel.login ?? null,
  source_broadcaster_user_name: shared?.channel.display_name ?? null,
  source_message_id: shared ? randomUUID() : null,
  source_badges: shared?.badges ?? null,
  is_source_only: shared ? shared.only : null,
});

/** The event's `reply`, from the line replied to. */
const replyOf = (parent: SimChatLine | undefined) =>
  parent
    ? {
        parent_message_id: parent.messageId,
        parent_message_body: parent.text,
        parent_user_id: parent.userId,
        parent_user_login: parent.userLogin,
        parent_user_name: parent.userName,
        thread_message_id: parent.messageId,
        thread_user_id: parent.userId,
        thread_user_login: parent.userLogin,
        thread_user_name: parent.userName,
      }
    : null;

function record(state: ChatState, line: SimChatLine): void {
  const list = state.lines.get(line.channelLogin) ?? [];
  list.push(line);
  if (list.length > MAX_LINES) list.shift();
  state.lines.set(line.channelLogin, list);
}

/** One of the channel's kept lines by id. */
export const lineOf = (state: ChatState, channelLogin: string, messageId: string) =>
  (state.lines.get(channelLogin) ?? []).find((l) => l.messageId === messageId);

/** Records a line and notifies EventSub; returns its message id. */
export function deliver(
  state: ChatState,
  channel: SimUser,
  user: SimUser,
  text: string,
  options: DeliverOptions,
): string {
  const { world, clock, eventsub } = state;
  const messageId = randomUUID();
  const parts = fragments(world, text, {
    cheers: options.source === "injected",
    emotes: new Set(options.emotes ?? []),
    channelId: channel.id,
  });
  const parent = options.replyParentMessageId
    ? lineOf(state, channel.login, options.replyParentMessageId)
    : undefined;
  const event = {
    broadcaster_user_id: channel.id,
    broadcaster_user_login: channel.login,
    broadcaster_user_name: channel.display_name,
    chatter_user_id: user.id,
    chatter_user_login: user.login,
    chatter_user_name: user.display_name,
    message_id: messageId,
    message: { text, fragments: parts },
    message_type: "text",
    badges: options.badges ?? badgesOf(world, channel.id, user.id),
    cheer: cheerOf(parts),
    color: "#1E90FF",
    reply: replyOf(parent),
    channel_points_custom_reward_id: null,
    ...sharedFields(options.shared),
  };
  record(state, {
    messageId,
    at: clock.now(),
    channelLogin: channel.login,
    userId: user.id,
    userLogin: user.login,
    userName: user.display_name,
    text,
    replyParentMessageId: options.replyParentMessageId ?? null,
    source: options.source,
    deleted: false,
  });
  eventsub.notify(CHAT_MESSAGE_TYPE, channel.id, event, options.at);
  return messageId;
}

/** The Shared Chat source a `say` names, or undefined for a line typed in the channel itself. */
function sharedSource(state: ChatState, input: SayInput, user: SimUser): SharedSource | undefined {
  if (!input.sourceChannel) return undefined;
  const channel = byLogin(state.world, input.sourceChannel);
  if (!channel) throw new Error(`no simulated channel ${input.sourceChannel}`);
  return {
    channel,
    badges: input.sourceBadges ?? badgesOf(state.world, channel.id, user.id),
    only: input.sourceOnly ?? false,
  };
}

/**
 * A chatter types a line (injected by a test or the demo); `at` stamps an old one. The room of the
 * channel it is typed in (the Shared Chat source, if any) may refuse it as Twitch would: a banned or
 * timed-out chatter, or room modes (followers-only, …) the chatter does not meet; nothing is delivered.
 */
export function trySay(state: ChatState, input: SayInput, at?: number): SayResult {
  const channel = byLogin(state.world, input.channel);
  if (!channel) throw new Error(`no simulated channel ${input.channel}`);
  const user = chatter(state.world, state.clock, input.user);
  const shared = sharedSource(state, input, user);
  const room = shared?.channel ?? channel;
  const emotes = new Set(input.emotes ?? []);
  const code =
    banRefusal(state, room.id, user.id) ??
    modeRefusal(state, room.id, user.id, { onlyEmotes: onlyEmotes(input.text, emotes) });
  if (code) return { messageId: null, refused: { code, message: REFUSAL_TEXT[code] ?? code } };
  const messageId = deliver(state, channel, user, input.text, {
    badges: input.badges,
    replyParentMessageId: input.replyParentMessageId ?? null,
    source: "injected",
    at,
    emotes: input.emotes,
    shared,
  });
  return { messageId, refused: null };
}

/** As `trySay`, throwing `ChatRefusedError` when the room refuses the line. */
export function say(state: ChatState, input: SayInput, at?: number): string {
  const result = trySay(state, input, at);
  if (result.refused) throw new ChatRefusedError(result.refused.code);
  return result.messageId;
}
