/**
 * Nightbot's user levels on Twitch (reference/chat-bot-commands.md §1.4): who may run a custom
 * command, read from the chat message's badges, so no API call is needed.
 */
import { parseUserLevel, USER_LEVELS, type UserLevel, userLevelAdmits } from "../../db/schema-enums.ts";

/** Nightbot's levels, lowest to highest (db/schema-enums.ts holds them: they are a stored column's values). */
export { USER_LEVELS, type UserLevel } from "../../db/schema-enums.ts";

/** The same list under the names import.ts reads (it was written before the list moved to db/). */
export const CUSTOM_LEVELS = USER_LEVELS;
export type CustomLevel = UserLevel;

/** Nightbot's default for a new command. */
export const DEFAULT_LEVEL: UserLevel = "everyone";

/**
 * The short forms users type. Nightbot documents only the full names; `mod` is seen in the wild and
 * generators emit the others (reference §1.3), and none of them can mean anything else.
 */
const SHORT_FORMS: Readonly<Record<string, UserLevel>> = {
  mod: "moderator",
  mods: "moderator",
  vip: "twitch_vip",
  sub: "subscriber",
  subs: "subscriber",
  reg: "regular",
  broadcaster: "owner",
  all: "everyone",
};

export const LEVEL_RULE = `A user level is one of ${USER_LEVELS.join(", ")} (or mod, vip, sub).`;

/** A level as typed after `-ul=` (any case), or null. */
export function parseLevel(typed: string): UserLevel | null {
  const word = typed.trim().toLowerCase();
  return parseUserLevel(word) ?? (Object.hasOwn(SHORT_FORMS, word) ? (SHORT_FORMS[word] ?? null) : null);
}

/** Whether a caller at `callerLevel` may run a command that needs `level`. */
export function admits(level: UserLevel, callerLevel: UserLevel): boolean {
  return userLevelAdmits(level, callerLevel);
}

/** The caller's level, from the badges and the regulars (live/chat-levels.ts). */
export { callerLevel } from "../live/chat-levels.ts";

/** Who may add, edit and delete commands from chat (CONTRACT §6): the broadcaster and moderators. */
export function mayManage(level: UserLevel): boolean {
  return admits("moderator", level);
}
