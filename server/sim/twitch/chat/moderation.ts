import { CHAT_EVENT_TYPES } from "../eventsub/state.ts";
import { actingModerator } from "../helix/access.ts";
import { helixError, missing, noContent } from "../helix/http.ts";
import type { HelixCall, HelixRouteList } from "../helix/route.ts";
import type { SimUser } from "../world.ts";
import { byId, roleOf } from "./chatters.ts";
import type { ChatState, SimChatLine, SimDeleteCall } from "./state.ts";

/**
 * What moderators do to the lines of a chat: Helix Delete Chat Messages (reference/moderation.md
 * §2.1) and the clearing of a chatter's lines that a timeout or ban brings (§2.2). A removed line stays
 * in the channel's list marked `deleted`, and chat readers get the matching EventSub event (§5).
 */

/** Lines older than this cannot be deleted (404, as an unknown one). */
const DELETE_WINDOW_MS = 6 * 60 * 60_000;

export function chatModerationRoutes(state: ChatState): HelixRouteList {
  return [
    [
      "DELETE /moderation/chat",
      {
        userToken: true,
        scopes: ["moderator:manage:chat_messages"],
        handle: (call) => told(state, call, deleteChatMessages(state, call)),
      },
    ],
  ];
}

const broadcasterFields = (channel: SimUser) => ({
  broadcaster_user_id: channel.id,
  broadcaster_user_login: channel.login,
  broadcaster_user_name: channel.display_name,
});

const targetFields = (line: SimChatLine) => ({
  target_user_id: line.userId,
  target_user_login: line.userLogin,
  target_user_name: line.userName,
});

/** Why a moderator may not delete the line (400), or null. */
function protectedLine(state: ChatState, broadcasterId: string, moderatorId: string, line: SimChatLine) {
  const role = roleOf(state.world, broadcasterId, line.userId);
  if (role === "broadcaster") return "You may not delete the broadcaster's messages.";
  if (role === "moderator" && line.userId !== moderatorId)
    return "You may not delete another moderator's messages.";
  return null;
}

/** Tells whoever watches deletions of one message what was answered; returns the answer. */
function told(state: ChatState, call: HelixCall, answer: Response): Response {
  const messageId = call.query.get("message_id");
  const broadcasterId = call.query.get("broadcaster_id");
  if (messageId === null || broadcasterId === null || state.deleteListeners.size === 0) return answer;
  const deletion: SimDeleteCall = { broadcasterId, messageId, status: answer.status };
  for (const listener of state.deleteListeners) listener(deletion);
  return answer;
}

/** Removes every line of the chat (Delete Chat Messages without `message_id`). */
function clearChat(state: ChatState, channel: SimUser): void {
  for (const line of state.lines.get(channel.login) ?? []) line.deleted = true;
  state.eventsub.notify(CHAT_EVENT_TYPES.clear, channel.id, broadcasterFields(channel));
}

function deleteChatMessages(state: ChatState, call: HelixCall): Response {
  const broadcasterId = call.query.get("broadcaster_id");
  if (!broadcasterId) return missing("broadcaster_id");
  const moderatorId = actingModerator(state.world, call, broadcasterId);
  if (moderatorId instanceof Response) return moderatorId;
  const channel = byId(state.world, broadcasterId)!;
  const messageId = call.query.get("message_id");
  if (messageId === null) {
    clearChat(state, channel);
    return noContent();
  }
  const line = (state.lines.get(channel.login) ?? []).find((l) => l.messageId === messageId && !l.deleted);
  if (!line) return helixError(404, "The ID in message_id was not found.");
  if (state.clock.now() - line.at > DELETE_WINDOW_MS) {
    return helixError(404, "The message specified in message_id was created more than 6 hours ago.");
  }
  const refusal = protectedLine(state, broadcasterId, moderatorId, line);
  if (refusal) return helixError(400, refusal);
  line.deleted = true;
  state.eventsub.notify(CHAT_EVENT_TYPES.messageDelete, channel.id, {
    ...broadcasterFields(channel),
    ...targetFields(line),
    message_id: line.messageId,
  });
  return noContent();
}

/** A timeout or ban clears the chatter's lines in the channel, as Twitch does for viewers. */
export function clearUserLines(state: ChatState, broadcasterId: string, userId: string): void {
  const channel = byId(state.world, broadcasterId);
  const user = byId(state.world, userId);
  if (!channel || !user) return;
  for (const line of state.lines.get(channel.login) ?? []) {
    if (line.userId === userId) line.deleted = true;
  }
  state.eventsub.notify(CHAT_EVENT_TYPES.clearUserMessages, channel.id, {
    ...broadcasterFields(channel),
    target_user_id: user.id,
    target_user_login: user.login,
    target_user_name: user.display_name,
  });
}
