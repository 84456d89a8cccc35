/**
 * The values some text columns may hold, shared by both dialects' schemas (db/sqlite/schema.ts,
 * db/pg/schema.ts) and by the code that reads them.
 */

export const ROLES = ["Default", "Pro", "VIP", "Partner"] as const;
export type Role = (typeof ROLES)[number];

/** A role as typed by a person (any case, spaces around it allowed), or null. */
export function parseRole(input: string): Role | null {
  return ROLES.find((role) => role.toLowerCase() === input.trim().toLowerCase()) ?? null;
}

export const CHAT_STATES = ["off", "needs_consent", "connecting", "connected", "error"] as const;
export type ChatState = (typeof CHAT_STATES)[number];

/**
 * Who may run a custom command: Nightbot's user levels, lowest to highest (each admits the levels
 * above it). VIP ranks above regular, as on Nightbot (reference/chat-bot-commands.md §1).
 */
export const USER_LEVELS = ["everyone", "subscriber", "regular", "twitch_vip", "moderator", "owner"] as const;
export type UserLevel = (typeof USER_LEVELS)[number];

/** A user level as typed (any case, spaces around it allowed), or null. */
export function parseUserLevel(input: string): UserLevel | null {
  const wanted = input.trim().toLowerCase();
  return USER_LEVELS.find((level) => level === wanted) ?? null;
}

/** Whether a chatter at `chatter`'s level may run a command that asks for `required`. */
export function userLevelAdmits(required: UserLevel, chatter: UserLevel): boolean {
  return USER_LEVELS.indexOf(chatter) >= USER_LEVELS.indexOf(required);
}

/**
 * Stream alerts (issue 25), in the order the dashboard lists them: a follow, a new (not gifted) sub, a
 * resub shared in chat, a gift of N subs (one alert however many recipients), a cheer, an incoming
 * raid, a channel-points redemption.
 */
export const ALERT_TYPES = ["follow", "subscribe", "resub", "gift", "cheer", "raid", "redemption"] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

export function parseAlertType(input: string): AlertType | null {
  return (ALERT_TYPES as readonly string[]).includes(input) ? (input as AlertType) : null;
}

/** What an uploaded alert asset is. */
export const ALERT_ASSET_KINDS = ["image", "sound"] as const;
export type AlertAssetKind = (typeof ALERT_ASSET_KINDS)[number];
