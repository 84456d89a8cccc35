import { helixError, json, readJsonObject } from "../helix/http.ts";
import type { HelixCall, HelixRouteList } from "../helix/route.ts";
import { count } from "../stats.ts";
import { byId, chatter, isBanned, roleOf } from "./chatters.ts";
import { deliver, lineOf } from "./lines.ts";
import { modeRefusal, REFUSAL_TEXT } from "./room.ts";
import { CHAT_BUCKET, type ChatState, type SimSendAttempt } from "./state.ts";

/**
 * Send Chat Message with Twitch's limits and drop reasons (reference/twitch-chat.md §4, §5, §7.3):
 * its own rate-limit bucket, the per-sender pace of a normal or privileged chatter, duplicates, room
 * modes, and a 200 with `is_sent: false` for a message Twitch drops.
 */

const WINDOW_MS = 30_000;
const PRIVILEGED_LIMIT = 100;
const NORMAL_LIMIT = 20;
const MAX_CODE_POINTS = 500;
/**
 * Attempts kept for `sent()`, newest last: tests look at their last few dozen, and the demo runs for
 * days in cuebot's process (its chat fills 200 in about a quarter of an hour, so it stops growing early).
 */
export const MAX_ATTEMPTS = 200;

const DROP_TEXT: Record<string, string> = {
  ...REFUSAL_TEXT,
  msg_ratelimit: "Your message was not sent because you are sending messages too quickly.",
  msg_duplicate:
    "Your message was not sent because it is identical to the previous one you sent, less than 30 seconds ago.",
};

const normalise = (text: string) => text.trim().replace(/\s+/g, " ");

export function sendMessageRoutes(state: ChatState): HelixRouteList {
  return [
    [
      "POST /chat/messages",
      { userToken: true, scopes: ["user:write:chat"], handle: (call) => sendMessage(state, call) },
    ],
  ];
}

/** The drop reason Twitch would give, or null when the message goes out. */
function dropReason(state: ChatState, broadcasterId: string, senderId: string, text: string): string | null {
  const { world, clock, windows, lastDelivered } = state;
  const now = clock.now();
  const key = `${broadcasterId}:${senderId}`;
  const times = (windows.get(key) ?? []).filter((t) => now - t < WINDOW_MS);
  times.push(now);
  windows.set(key, times);
  const role = roleOf(world, broadcasterId, senderId);
  const privileged = role !== "none";
  const earlier = times.slice(0, -1);
  if (privileged) {
    if (earlier.length >= PRIVILEGED_LIMIT) return "msg_ratelimit";
  } else {
    if (earlier.length >= NORMAL_LIMIT) return "msg_ratelimit";
    const previous = earlier.at(-1);
    if (previous !== undefined && now - previous < 1000) return "msg_ratelimit";
    const last = lastDelivered.get(key);
    if (last && last.text === normalise(text) && now - last.at < WINDOW_MS) return "msg_duplicate";
  }
  return modeRefusal(state, broadcasterId, senderId, {
    previousAt: lastDelivered.get(key)?.at,
    onlyEmotes: false,
  });
}

/** The caller's bucket, refilled once its minute is over. */
function bucketOf(state: ChatState, userId: string): { remaining: number; resetAt: number } {
  const now = state.clock.now();
  let bucket = state.buckets.get(userId);
  if (!bucket || now >= bucket.resetAt) {
    bucket = { remaining: CHAT_BUCKET, resetAt: now + 60_000 };
    state.buckets.set(userId, bucket);
  }
  return bucket;
}

function bucketHeaders(bucket: { remaining: number; resetAt: number }): Record<string, string> {
  return {
    "Ratelimit-Limit": String(CHAT_BUCKET),
    "Ratelimit-Remaining": String(Math.max(0, bucket.remaining)),
    "Ratelimit-Reset": String(Math.ceil(bucket.resetAt / 1000)),
  };
}

/** Keeps the attempt and tells whoever watches. */
function record(state: ChatState, attempt: SimSendAttempt): void {
  state.attempts.push(attempt);
  if (state.attempts.length > MAX_ATTEMPTS) state.attempts.shift();
  for (const listener of state.sendListeners) listener(attempt);
}

async function sendMessage(state: ChatState, call: HelixCall): Promise<Response> {
  const { world, clock, knobs } = state;
  const now = clock.now();
  const bucket = bucketOf(state, call.caller.userId ?? "");
  const headers = bucketHeaders(bucket);
  if (bucket.remaining <= 0) return helixError(429, "Too Many Requests", headers);
  bucket.remaining -= 1;
  headers["Ratelimit-Remaining"] = String(bucket.remaining);
  const body = await readJsonObject(call.request);
  if (!body) return helixError(400, "The body of the request is not valid JSON.", headers);
  // The IDs are documented in the body; twurple sends them in the query, which Twitch accepts too.
  const broadcasterId = body.broadcaster_id ?? call.query.get("broadcaster_id") ?? undefined;
  const senderId = body.sender_id ?? call.query.get("sender_id") ?? undefined;
  const text = body.message;
  const parent = body.reply_parent_message_id;
  const attempt = (status: number, isSent: boolean, reason: string | null) =>
    record(state, {
      at: now,
      status,
      broadcasterId: String(broadcasterId ?? ""),
      senderId: String(senderId ?? ""),
      text: typeof text === "string" ? text : "",
      replyParentMessageId: typeof parent === "string" ? parent : null,
      isSent,
      dropReason: reason ? { code: reason, message: DROP_TEXT[reason] ?? reason } : null,
    });
  const refuse = (status: number, message: string) => {
    attempt(status, false, null);
    return helixError(status, message, headers);
  };
  if (typeof broadcasterId !== "string" || broadcasterId === "")
    return refuse(400, 'Missing required parameter "broadcaster_id"');
  if (typeof senderId !== "string" || senderId === "")
    return refuse(400, 'Missing required parameter "sender_id"');
  if (typeof text !== "string" || text.trim() === "")
    return refuse(400, 'Missing required parameter "message"');
  if (senderId !== call.caller.userId)
    return refuse(401, "The sender_id in the body must match the user ID in the user access token.");
  if (body.for_source_only !== undefined)
    return refuse(400, "for_source_only may only be set with an app access token.");
  const channel = byId(world, broadcasterId);
  if (!channel) return refuse(400, "The broadcaster_id is not valid.");
  const parentLine = typeof parent === "string" ? lineOf(state, channel.login, parent) : undefined;
  if (parent !== undefined && !parentLine)
    return refuse(400, "The reply_parent_message_id is not a message in this channel.");
  // A deleted message, or one cleared by a timeout or ban, cannot be replied to (moderation.md §0).
  if (parentLine?.deleted)
    return refuse(400, "The request's input was not valid. Message cannot be replied to.");
  if ([...text].length > MAX_CODE_POINTS) return refuse(422, "The message is too large.");
  if (isBanned(world, clock, broadcasterId, senderId))
    return refuse(403, "The sender is not permitted to send chat messages to the broadcaster's chat room.");
  const reason = knobs.forceDrop?.code ?? dropReason(state, broadcasterId, senderId, text);
  if (reason) {
    const message = knobs.forceDrop?.message ?? DROP_TEXT[reason] ?? reason;
    count(state.stats.chatDrops, reason);
    record(state, {
      at: now,
      status: 200,
      broadcasterId,
      senderId,
      text,
      replyParentMessageId: typeof parent === "string" ? parent : null,
      isSent: false,
      dropReason: { code: reason, message },
    });
    return json(
      200,
      { data: [{ message_id: "", is_sent: false, drop_reason: { code: reason, message } }] },
      headers,
    );
  }
  attempt(200, true, null);
  state.lastDelivered.set(`${broadcasterId}:${senderId}`, { text: normalise(text), at: now });
  const sender = byId(world, senderId) ?? chatter(world, clock, senderId);
  const messageId = deliver(state, channel, sender, text, {
    replyParentMessageId: typeof parent === "string" ? parent : null,
    source: "sent",
  });
  return json(200, { data: [{ message_id: messageId, is_sent: true, drop_reason: null }] }, headers);
}
