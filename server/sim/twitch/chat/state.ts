import type { Clock } from "../../../core/clock.ts";
import type { EventSubSim } from "../eventsub/eventsub.ts";
import type { SimWorld } from "../world.ts";

/**
 * What the chat simulator keeps beside the world: each channel's recent lines (lines.ts), its recent
 * Send Chat Message attempts and the per-sender windows its limits count (send.ts), room modes, and the
 * endpoint's own rate-limit bucket.
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

export interface RoomModes {
  slowSeconds: number;
  followersOnly: boolean;
  subscribersOnly: boolean;
  emoteOnly: boolean;
}

export interface SimChatKnobs {
  /** The next sends answer `is_sent: false` with this reason (until set back to null). */
  forceDrop: { code: string; message: string } | null;
}

export interface ChatEnvironment {
  world: SimWorld;
  clock: Clock;
  eventsub: EventSubSim;
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
  /** broadcaster id → its room modes. */
  modes: Map<string, RoomModes>;
  /**
   * Send Chat Message's own bucket per token user (it does not drain the normal Helix one): Helix
   * counts per client id and user token, so a thousand streamers' tokens each have their own.
   */
  buckets: Map<string, { remaining: number; resetAt: number }>;
  /** Who watches send attempts as they happen (the chat bench times its replies by them). */
  sendListeners: Set<(attempt: SimSendAttempt) => void>;
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
    modes: new Map(),
    buckets: new Map(),
    sendListeners: new Set(),
  };
}
