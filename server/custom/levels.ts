/**
 * Nightbot's user levels on Twitch (reference/chat-bot-commands.md §1.4): who may run a custom
 * command, read from the chat message's badges, so no API call is needed.
 */

import { MODERATOR_BADGES } from "../chat/chat-command-input.ts";
import type { ChatMessageEvent } from "../chat/eventsub-message.ts";

/**
 * Lowest to highest; each level admits the ones above it, so a VIP passes a `regular` command.
 * Until `CUSTOM_LEVELS` lands in db/schema-enums.ts (the stored column's values), the list lives here;
 * then this file re-exports it from there.
 */
export const CUSTOM_LEVELS = [
  "everyone",
  "subscriber",
  "regular",
  "twitch_vip",
  "moderator",
  "owner",
] as const;
export type CustomLevel = (typeof CUSTOM_LEVELS)[number];

/** Nightbot's default for a new command. */
export const DEFAULT_LEVEL: CustomLevel = "everyone";

/**
 * The short forms users type. Nightbot documents only the full names; `mod` is seen in the wild and
 * generators emit the others (reference §1.3), and none of them can mean anything else.
 */
const SHORT_FORMS: Readonly<Record<string, CustomLevel>> = {
  mod: "moderator",
  mods: "moderator",
  vip: "twitch_vip",
  sub: "subscriber",
  subs: "subscriber",
  reg: "regular",
  broadcaster: "owner",
  all: "everyone",
};

export const LEVEL_RULE = `A user level is one of ${CUSTOM_LEVELS.join(", ")} (or mod, vip, sub).`;

/** A level as typed after `-ul=` (any case), or null. */
export function parseLevel(typed: string): CustomLevel | null {
  const word = typed.trim().toLowerCase();
  const full = CUSTOM_LEVELS.find((level) => level === word);
  return full ?? (Object.hasOwn(SHORT_FORMS, word) ? (SHORT_FORMS[word] ?? null) : null);
}

export function levelRank(level: CustomLevel): number {
  return CUSTOM_LEVELS.indexOf(level);
}

/** Whether a caller at `callerLevel` may run a command that needs `level`. */
export function admits(level: CustomLevel, callerLevel: CustomLevel): boolean {
  return levelRank(callerLevel) >= levelRank(level);
}

/**
 * The caller's level: the broadcaster is the owner; a moderator or lead moderator badge, then VIP;
 * then the streamer's regulars (Twitch ids, since logins change); then a subscriber or founder badge
 * (a founder wears `founder` instead of `subscriber`).
 */
export function callerLevel(
  event: Pick<ChatMessageEvent, "badges" | "chatterId" | "broadcasterId">,
  regulars: ReadonlySet<string>,
): CustomLevel {
  const { badges } = event;
  if (event.chatterId === event.broadcasterId || badges.includes("broadcaster")) return "owner";
  if (MODERATOR_BADGES.some((badge) => badges.includes(badge))) return "moderator";
  if (badges.includes("vip")) return "twitch_vip";
  if (regulars.has(event.chatterId)) return "regular";
  if (badges.includes("subscriber") || badges.includes("founder")) return "subscriber";
  return "everyone";
}

/** Who may add, edit and delete commands from chat (CONTRACT §6): the broadcaster and moderators. */
export function mayManage(level: CustomLevel): boolean {
  return admits("moderator", level);
}
