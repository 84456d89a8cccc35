/**
 * EventSub WebSocket frames (reference/twitch-chat.md §1.2–1.3, §3.2) read into the few fields cuebot
 * uses. Anything that is not a well-formed frame reads as null and is ignored, never thrown.
 */

export interface ChatMessageEvent {
  broadcasterId: string;
  broadcasterLogin: string;
  chatterId: string;
  chatterLogin: string;
  chatterName: string;
  /** The chat message's own id (the reply target). */
  messageId: string;
  text: string;
  /** Badge set ids: broadcaster, moderator, vip, subscriber, founder, … */
  badges: string[];
  /** When the message replies to another: that message's author (the reply UI prefixes "@login "). */
  replyParentLogin: string | null;
  /** Shared chat: the channel the message was typed in, or null when typed here. */
  sourceBroadcasterId: string | null;
  /** The Twitch emotes in the message (its `emote` fragments' texts, in order); empty when none. */
  emotes: readonly string[];
}

export type EventSubFrame =
  | { type: "session_welcome"; id: string; at: number; sessionId: string; keepaliveSeconds: number }
  | { type: "session_keepalive"; id: string; at: number }
  | { type: "session_reconnect"; id: string; at: number; reconnectUrl: string }
  | {
      type: "notification";
      id: string;
      at: number;
      subscriptionType: string;
      /**
       * The channel the subscription is for (its condition's broadcaster, or the raid's target):
       * which feature's channel receives it (live/feed-routes.ts); "" when the frame names none.
       */
      broadcasterId: string;
      /** A chat message read (channel.chat.message only; null for other types or when malformed). */
      event: ChatMessageEvent | null;
      /** Other types: the `event` object as Twitch sent it, for its feature to read (null for chat). */
      raw: unknown;
    }
  | {
      type: "revocation";
      id: string;
      at: number;
      subscriptionType: string;
      status: string;
      broadcasterId: string;
    };

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null;
const str = (value: unknown): string | null => (typeof value === "string" ? value : null);

/** RFC 3339 with up to nanoseconds; only milliseconds matter here. */
export function parseTimestamp(text: string): number {
  return Date.parse(text.replace(/(\.\d{3})\d+/, "$1"));
}

function chatEvent(event: unknown): ChatMessageEvent | null {
  if (!isObject(event) || !isObject(event.message)) return null;
  const fields = {
    broadcasterId: str(event.broadcaster_user_id),
    broadcasterLogin: str(event.broadcaster_user_login),
    chatterId: str(event.chatter_user_id),
    chatterLogin: str(event.chatter_user_login),
    chatterName: str(event.chatter_user_name),
    messageId: str(event.message_id),
    text: str(event.message.text),
  };
  if (Object.values(fields).some((v) => v === null)) return null;
  const badges = Array.isArray(event.badges)
    ? event.badges.map((b) => (isObject(b) ? str(b.set_id) : null)).filter((b): b is string => b !== null)
    : [];
  const reply = isObject(event.reply) ? str(event.reply.parent_user_login) : null;
  return {
    ...(fields as { [K in keyof typeof fields]: string }),
    badges,
    replyParentLogin: reply,
    sourceBroadcasterId: str(event.source_broadcaster_user_id),
    emotes: emoteTexts(event.message.fragments),
  };
}

const NO_EMOTES: readonly string[] = Object.freeze([]);

/** The texts of a message's emote fragments (most lines have none: one shared empty list). */
function emoteTexts(fragments: unknown): readonly string[] {
  if (!Array.isArray(fragments)) return NO_EMOTES;
  let emotes: string[] | null = null;
  for (const fragment of fragments) {
    if (!isObject(fragment) || fragment.type !== "emote") continue;
    const text = str(fragment.text);
    if (text === null) continue;
    emotes ??= [];
    emotes.push(text);
  }
  return emotes ?? NO_EMOTES;
}

/** The channel a subscription's condition names: its broadcaster, or (a raid) the raided channel. */
function conditionBroadcaster(subscription: unknown): string | null {
  if (!isObject(subscription) || !isObject(subscription.condition)) return null;
  const { condition } = subscription;
  return str(condition.broadcaster_user_id) ?? str(condition.to_broadcaster_user_id);
}

export function parseFrame(raw: string | Buffer): EventSubFrame | null {
  let frame: unknown;
  try {
    frame = JSON.parse(typeof raw === "string" ? raw : raw.toString("utf8"));
  } catch {
    return null;
  }
  if (!isObject(frame) || !isObject(frame.metadata) || !isObject(frame.payload)) return null;
  const { metadata, payload } = frame;
  const id = str(metadata.message_id);
  const stamp = str(metadata.message_timestamp);
  const at = stamp ? parseTimestamp(stamp) : Number.NaN;
  if (!id || Number.isNaN(at)) return null;
  switch (metadata.message_type) {
    case "session_welcome": {
      const session = isObject(payload.session) ? payload.session : null;
      const sessionId = session ? str(session.id) : null;
      const keepalive = session?.keepalive_timeout_seconds;
      if (!sessionId || typeof keepalive !== "number") return null;
      return { type: "session_welcome", id, at, sessionId, keepaliveSeconds: keepalive };
    }
    case "session_keepalive":
      return { type: "session_keepalive", id, at };
    case "session_reconnect": {
      const url = isObject(payload.session) ? str(payload.session.reconnect_url) : null;
      return url ? { type: "session_reconnect", id, at, reconnectUrl: url } : null;
    }
    case "notification": {
      const type = str(metadata.subscription_type) ?? "";
      const chat = type === "channel.chat.message";
      const event = chat ? chatEvent(payload.event) : null;
      return {
        type: "notification",
        id,
        at,
        subscriptionType: type,
        broadcasterId: conditionBroadcaster(payload.subscription) ?? event?.broadcasterId ?? "",
        event,
        raw: chat ? null : (payload.event ?? null),
      };
    }
    case "revocation": {
      const sub = isObject(payload.subscription) ? payload.subscription : null;
      return {
        type: "revocation",
        id,
        at,
        subscriptionType: str(sub?.type) ?? "",
        status: str(sub?.status) ?? "authorization_revoked",
        broadcasterId: conditionBroadcaster(sub) ?? "",
      };
    }
    default:
      return null;
  }
}
