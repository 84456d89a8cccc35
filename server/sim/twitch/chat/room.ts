import { isBanned, roleOf } from "./chatters.ts";
import { type ChatState, settingsOf } from "./state.ts";

/**
 * Who the room lets speak: a banned or timed-out chatter never, and while a room mode is on only
 * those it admits (reference/twitch-chat.md §5.2); the broadcaster and moderators are exempt from the
 * modes. The codes are Twitch's NOTICE ids, which Send Chat Message also gives as `drop_reason.code`.
 */

export const REFUSAL_TEXT: Readonly<Record<string, string>> = {
  msg_banned: "You are permanently banned from talking in this channel.",
  msg_timedout: "You are timed out from talking in this channel.",
  msg_slowmode: "This room is in slow mode and you are sending messages too quickly.",
  msg_followersonly: "This room is in followers-only mode.",
  msg_followersonly_followed:
    "This room is in followers-only mode and you have not followed this channel long enough to chat.",
  msg_subsonly: "This room is in subscribers-only mode.",
  msg_emoteonly: "This room is in emote-only mode.",
};

const MINUTE_MS = 60_000;

/** msg_banned or msg_timedout while a ban or timeout holds, else null. */
export function banRefusal(state: ChatState, broadcasterId: string, userId: string): string | null {
  if (!isBanned(state.world, state.clock, broadcasterId, userId)) return null;
  const permanent = state.world.bans.some(
    (b) => b.broadcaster_id === broadcasterId && b.user_id === userId && b.expires_at === null,
  );
  return permanent ? "msg_banned" : "msg_timedout";
}

function followerRefusal(state: ChatState, broadcasterId: string, userId: string, minutes: number) {
  const follow = state.world.follows.find((f) => f.broadcaster_id === broadcasterId && f.user_id === userId);
  if (!follow) return "msg_followersonly";
  const followedFor = state.clock.now() - Date.parse(follow.followed_at);
  return followedFor < minutes * MINUTE_MS ? "msg_followersonly_followed" : null;
}

export interface RoomLine {
  /** When the chatter's previous line in this room went out (slow mode), if known. */
  previousAt?: number;
  /** Whether the line is made of emotes only (emote-only mode). */
  onlyEmotes: boolean;
}

/** The room mode that refuses the line, or null (exempt: the broadcaster and moderators). */
export function modeRefusal(
  state: ChatState,
  broadcasterId: string,
  userId: string,
  line: RoomLine,
): string | null {
  const role = roleOf(state.world, broadcasterId, userId);
  if (role === "broadcaster" || role === "moderator") return null;
  const settings = settingsOf(state, broadcasterId);
  const now = state.clock.now();
  const wait = (settings.slow_mode_wait_time ?? 0) * 1000;
  if (settings.slow_mode && line.previousAt !== undefined && now - line.previousAt < wait)
    return "msg_slowmode";
  if (settings.follower_mode) {
    const refusal = followerRefusal(state, broadcasterId, userId, settings.follower_mode_duration ?? 0);
    if (refusal) return refusal;
  }
  if (
    settings.subscriber_mode &&
    !state.world.subscriptions.some((s) => s.broadcaster_id === broadcasterId && s.user_id === userId)
  ) {
    return "msg_subsonly";
  }
  if (settings.emote_mode && !line.onlyEmotes) return "msg_emoteonly";
  return null;
}
