import type { Clock } from "../../../core/clock.ts";
import type { EventSubSim } from "../eventsub/eventsub.ts";
import type { TwitchSimStats } from "../stats.ts";
import type { SimWorld } from "../world.ts";

/**
 * What the chat simulator keeps beside the world: each channel's recent lines (lines.ts), its recent
 * Send Chat Message attempts and the per-sender windows its limits count (send.ts), chat settings
 * (settings.ts), and the endpoint's own rate-limit bucket.
 */

export interface SimChatLine {
  messageId: string;
  at: number;
  channelLogin: string;
  userId: string;
  userLogin: string;
  userName: string;
  text: string;
  replyParentMessageId: string | null;
  source: "injected" | "sent";
  /**
   * Removed from chat by a moderator: Delete Chat Messages, a clear, or a timeout or ban of its
   * chatter (Twitch clears their recent lines). Kept in the list, marked.
   */
  deleted: boolean;
}

export interface SimSendAttempt {
  at: number;
  status: number;
  broadcasterId: string;
  senderId: string;
  text: string;
  replyParentMessageId: string | null;
  isSent: boolean;
  dropReason: { code: string; message: string } | null;
}

/** A Delete Chat Messages call with a `message_id`, as the simulator answered it. */
export interface SimDeleteCall {
  broadcasterId: string;
  messageId: string;
  status: number;
}

/** The room modes tests set directly (`setRoomMode`); they write the channel's chat settings. */
export interface RoomModes {
  slowSeconds: number;
  followersOnly: boolean;
  subscribersOnly: boolean;
  emoteOnly: boolean;
}

/**
 * A channel's chat settings as Helix Get/Update Chat Settings spell them (reference/moderation.md
 * §2.4): each duration is null while its mode is off.
 */
export interface SimChatSettings {
  emote_mode: boolean;
  follower_mode: boolean;
  /** Minutes a chatter must have followed, 0–129 600. */
  follower_mode_duration: number | null;
  non_moderator_chat_delay: boolean;
  /** 2, 4 or 6 seconds. */
  non_moderator_chat_delay_duration: number | null;
  slow_mode: boolean;
  /** 3–120 seconds. */
  slow_mode_wait_time: number | null;
  subscriber_mode: boolean;
  unique_chat_mode: boolean;
}

export const DEFAULT_CHAT_SETTINGS: Readonly<SimChatSettings> = {
  emote_mode: false,
  follower_mode: false,
  follower_mode_duration: null,
  non_moderator_chat_delay: false,
  non_moderator_chat_delay_duration: null,
  slow_mode: false,
  slow_mode_wait_time: null,
  subscriber_mode: false,
  unique_chat_mode: false,
};

export interface SimChatKnobs {
  /** The next sends answer `is_sent: false` with this reason (until set back to null). */
  forceDrop: { code: string; message: string } | null;
}

export interface ChatEnvironment {
  world: SimWorld;
  clock: Clock;
  eventsub: EventSubSim;
  stats: TwitchSimStats;
}

export interface ChatState extends ChatEnvironment {
  knobs: SimChatKnobs;
  /** channel login → its last `MAX_LINES` lines. */
  lines: Map<string, SimChatLine[]>;
  /** The newest `MAX_ATTEMPTS` Send Chat Message attempts (send.ts), oldest first. */
  attempts: SimSendAttempt[];
  /** "broadcaster:sender" → times of its send attempts in the window (drops count too). */
  windows: Map<string, number[]>;
  /** "broadcaster:sender" → its last delivered text and when. */
  lastDelivered: Map<string, { text: string; at: number }>;
  /** broadcaster id → its chat settings (a channel missing here has the defaults). */
  settings: Map<string, SimChatSettings>;
  /**
   * Send Chat Message's own bucket per token user (it does not drain the normal Helix one): Helix
   * counts per client id and user token, so a thousand streamers' tokens each have their own.
   */
  buckets: Map<string, { remaining: number; resetAt: number }>;
  /** Who watches send attempts as they happen (the chat bench times its replies by them). */
  sendListeners: Set<(attempt: SimSendAttempt) => void>;
  /** Who watches Delete Chat Messages calls as they arrive (the moderation bench times them). */
  deleteListeners: Set<(call: SimDeleteCall) => void>;
}

export const CHAT_BUCKET = 800;

export function newChatState(env: ChatEnvironment): ChatState {
  return {
    ...env,
    knobs: { forceDrop: null },
    lines: new Map(),
    attempts: [],
    windows: new Map(),
    lastDelivered: new Map(),
    settings: new Map(),
    buckets: new Map(),
    sendListeners: new Set(),
    deleteListeners: new Set(),
  };
}

/** A channel's chat settings (the defaults until changed). */
export const settingsOf = (state: ChatState, broadcasterId: string): SimChatSettings =>
  state.settings.get(broadcasterId) ?? DEFAULT_CHAT_SETTINGS;
