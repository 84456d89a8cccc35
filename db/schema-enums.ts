/**
 * The values some text columns may hold, shared by both dialects' schemas (db/sqlite/schema.ts,
 * db/pg/schema.ts) and by the code that reads them. The lists are cuebot's vocabulary
 * (server/vocabulary.ts); this adds how the store and the command line parse them.
 */
import {
  ALERT_TYPES,
  type AlertType,
  ROLES,
  type Role,
  USER_LEVELS,
  type UserLevel,
} from "../server/vocabulary.ts";

export {
  ALERT_ASSET_KINDS,
  ALERT_TYPES,
  type AlertAssetKind,
  type AlertType,
  COMMAND_REFUSALS,
  CONNECTION_STATES as CHAT_STATES,
  type CommandRefusal,
  type ConnectionState as ChatState,
  MODERATION_FILTERS,
  MODERATION_LOG_ACTIONS,
  type ModerationFilter,
  type ModerationLogAction,
  OBS_STATES,
  OBS_VIAS,
  type ObsState,
  type ObsVia,
  ROLES,
  type Role,
  USER_LEVELS,
  type UserLevel,
} from "../server/vocabulary.ts";

/** A role as typed by a person (any case, spaces around it allowed), or null. */
export function parseRole(input: string): Role | null {
  return ROLES.find((role) => role.toLowerCase() === input.trim().toLowerCase()) ?? null;
}

/** A user level as typed (any case, spaces around it allowed), or null. */
export function parseUserLevel(input: string): UserLevel | null {
  const wanted = input.trim().toLowerCase();
  return USER_LEVELS.find((level) => level === wanted) ?? null;
}

/** Whether a chatter at `chatter`'s level may run a command that asks for `required`. */
export function userLevelAdmits(required: UserLevel, chatter: UserLevel): boolean {
  return USER_LEVELS.indexOf(chatter) >= USER_LEVELS.indexOf(required);
}

export function parseAlertType(input: string): AlertType | null {
  return (ALERT_TYPES as readonly string[]).includes(input) ? (input as AlertType) : null;
}
