import type { UserLevel } from "../vocabulary.ts";
import type { ChatMessageEvent } from "./eventsub-message.ts";

/** Badges that make a chatter a moderator (lead moderators wear their own since Dec 2025). */
export const MODERATOR_BADGES: readonly string[] = ["moderator", "lead_moderator"];

/**
 * A chatter's Nightbot user level (reference/chat-bot-commands.md §1.4) from the line's badges and
 * the streamer's regulars (Twitch ids, since logins change): the broadcaster is the owner; a
 * moderator or lead moderator badge, then VIP; then a regular; then a subscriber or founder badge (a
 * founder wears `founder` instead of `subscriber`). Every feature reading chat lines (custom
 * commands, moderation) asks here.
 */
export function callerLevel(
  event: Pick<ChatMessageEvent, "badges" | "chatterId" | "broadcasterId">,
  regulars: ReadonlySet<string>,
): UserLevel {
  const { badges } = event;
  if (event.chatterId === event.broadcasterId || badges.includes("broadcaster")) return "owner";
  if (MODERATOR_BADGES.some((badge) => badges.includes(badge))) return "moderator";
  if (badges.includes("vip")) return "twitch_vip";
  if (regulars.has(event.chatterId)) return "regular";
  if (badges.includes("subscriber") || badges.includes("founder")) return "subscriber";
  return "everyone";
}
