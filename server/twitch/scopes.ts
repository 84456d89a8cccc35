// Twitch's scope vocabulary as cuebot uses it: what every login asks for, and what each feature adds
// (its re-consent, identity/routes-login.ts, asks for these). Below the features that ask for scopes
// (identity) and those that need them (chat, alerts), so neither imports the other for a name.

/** The ten scopes of the service document (SERVICE.md §5 rule 3), exactly: every login asks for them. */
export const BASE_SCOPES = [
  "user:read:email",
  "moderator:read:followers",
  "clips:edit",
  "moderator:read:chatters",
  "user:write:chat",
  "chat:read",
  "chat:edit",
  "moderator:manage:banned_users",
  "channel:read:vips",
  "channel:read:subscriptions",
] as const;

/** Native chat: the scope that lets a user token read chat over EventSub (reference/twitch-chat.md §6). */
export const READ_CHAT_SCOPE = "user:read:chat";
/** Native chat: the scope that lets a user token send chat messages. */
export const WRITE_CHAT_SCOPE = "user:write:chat";
/** Native chat: what a separate bot account needs to read and speak. */
export const CHAT_BOT_SCOPES = [READ_CHAT_SCOPE, WRITE_CHAT_SCOPE] as const;
/** Chat moderation: deleting a message, and followers-only chat for the raid shield (CONTRACT §6). */
export const MODERATION_EXTRA_SCOPES = [
  "moderator:manage:chat_messages",
  "moderator:manage:chat_settings",
] as const;
/** Chat moderation's timeouts and bans (one of the ten, also asked of a bot account). */
export const BAN_SCOPE = "moderator:manage:banned_users";
/** Everything the account that acts for moderation needs (the streamer's own, or the bot's). */
export const MODERATION_SCOPES = [...MODERATION_EXTRA_SCOPES, BAN_SCOPE] as const;
/**
 * Native chat: what the bot login asks for, its chat scopes and where it moderates (for the check);
 * with moderation on, MODERATION_SCOPES too (identity/routes-bot-link.ts).
 */
export const BOT_LINK_SCOPES = [...CHAT_BOT_SCOPES, "user:read:moderated_channels"] as const;

/** Stream alerts: the scopes they add to the ten asked at login (CONTRACT §6). */
export const ALERT_EXTRA_SCOPES = ["bits:read", "channel:read:redemptions"] as const;

/** Twitch's own shoutout, sent beside the shoutout command's chat line (CONTRACT §6). */
export const SHOUTOUT_SCOPE = "moderator:manage:shoutouts";
/**
 * Listing the channel's moderators (the roulette never times one out): either scope lets cuebot read
 * the list; the consent asks for the first, the narrower one.
 */
export const MODERATOR_LIST_SCOPES = ["moderation:read", "channel:manage:moderators"] as const;

/** Whether a grant lets cuebot list the channel's moderators. */
export function canListModerators(granted: readonly string[]): boolean {
  return MODERATOR_LIST_SCOPES.some((scope) => granted.includes(scope));
}
