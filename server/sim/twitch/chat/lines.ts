import { randomUUID } from "node:crypto";
import { CHAT_MESSAGE_TYPE } from "../eventsub/state.ts";
import type { SimUser, SimWorld } from "../world.ts";
import { badgesOf, byLogin, chatter, type SimBadge } from "./chatters.ts";
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
  sourceChannel?: string;
}

/** One `message.fragments[]` entry; the parts a type does not use are null (reference §3.2). */
interface Fragment {
  type: "text" | "mention" | "cheermote";
  text: string;
  cheermote: { prefix: string; bits: number; tier: number } | null;
  emote: null;
  mention: { user_id: string; user_name: string; user_login: string } | null;
}

interface DeliverOptions {
  badges?: SimBadge[];
  replyParentMessageId?: string | null;
  source: "injected" | "sent";
  at?: number;
  sourceChannel?: SimUser;
}

const MAX_LINES = 500;

/** The event's `cheer`: the bits of its cheermotes, or null when it has none (reference §3.2). */
function cheerOf(parts: Fragment[]) {
  const bits = parts.reduce((sum, f) => sum + (f.cheermote?.bits ?? 0), 0);
  return bits > 0 ? { bits } : null;
}

/**
 * Fragments as Twitch splits them: mentions and cheers apart from plain text. Only a chatter can
 * cheer; a message sent through the API (`cheers` false) keeps "Cheer100" as text.
 */
function fragments(world: SimWorld, text: string, cheers: boolean): Fragment[] {
  const out: Fragment[] = [];
  let plain = "";
  const flush = () => {
    if (plain) out.push({ type: "text", text: plain, cheermote: null, emote: null, mention: null });
    plain = "";
  };
  for (const part of text.split(/(\s+)/)) {
    const mention = /^@([a-zA-Z0-9_]{1,25})$/.exec(part);
    const cheer = cheers ? /^Cheer(\d{1,6})$/.exec(part) : null;
    const mentioned = mention ? byLogin(world, mention[1]!) : undefined;
    if (mentioned) {
      flush();
      out.push({
        type: "mention",
        text: part,
        cheermote: null,
        emote: null,
        mention: { user_id: mentioned.id, user_name: mentioned.display_name, user_login: mentioned.login },
      });
    } else if (cheer) {
      flush();
      const bits = Number(cheer[1]);
      out.push({
        type: "cheermote",
        text: part,
        cheermote: {
          prefix: "cheer",
          bits,
          tier: bits >= 10_000 ? 10_000 : bits >= 1000 ? 1000 : bits >= 100 ? 100 : 1,
        },
        emote: null,
        mention: null,
      });
    } else plain += part;
  }
  flush();
  return out;
}

function record(state: ChatState, line: SimChatLine): void {
  const list = state.lines.get(line.channelLogin) ?? [];
  list.push(line);
  if (list.length > MAX_LINES) list.shift();
  state.lines.set(line.channelLogin, list);
}

/** Whether `messageId` is one of the channel's kept lines (a reply may only name one). */
export const hasLine = (state: ChatState, channelLogin: string, messageId: string) =>
  (state.lines.get(channelLogin) ?? []).some((l) => l.messageId === messageId);

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
  const parts = fragments(world, text, options.source === "injected");
  const parent = options.replyParentMessageId
    ? (state.lines.get(channel.login) ?? []).find((l) => l.messageId === options.replyParentMessageId)
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
    reply: parent
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
      : null,
    channel_points_custom_reward_id: null,
    source_broadcaster_user_id: options.sourceChannel?.id ?? null,
    source_broadcaster_user_login: options.sourceChannel?.login ?? null,
    source_broadcaster_user_name: options.sourceChannel?.display_name ?? null,
    source_message_id: options.sourceChannel ? randomUUID() : null,
    source_badges: options.sourceChannel ? [] : null,
    is_source_only: options.sourceChannel ? false : null,
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
  });
  eventsub.notify(CHAT_MESSAGE_TYPE, channel.id, event, options.at);
  return messageId;
}

/** A chatter types a line (injected by a test or the demo); `at` stamps an old one. */
export function say(state: ChatState, input: SayInput, at?: number): string {
  const channel = byLogin(state.world, input.channel);
  if (!channel) throw new Error(`no simulated channel ${input.channel}`);
  const user = chatter(state.world, state.clock, input.user);
  const sourceChannel = input.sourceChannel ? byLogin(state.world, input.sourceChannel) : undefined;
  return deliver(state, channel, user, input.text, {
    badges: input.badges,
    replyParentMessageId: input.replyParentMessageId ?? null,
    source: "injected",
    at,
    sourceChannel,
  });
}
