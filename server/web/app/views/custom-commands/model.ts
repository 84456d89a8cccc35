// What the Custom commands view reads from the panel API (server/panel/custom-commands.ts,
// custom-command-tools.ts, regulars.ts) and the words it shows for it. The user levels are cuebot's
// vocabulary, as are the limits the store checks (db/chat-bot-rules.ts); the shapes are restated here.
import { CHAT_BOT_LIMITS, type UserLevel } from "../../../../vocabulary.ts";

export { USER_LEVELS, type UserLevel } from "../../../../vocabulary.ts";

/** Nightbot's levels, lowest to highest, as a streamer reads them. */
export const LEVEL_LABELS: Record<UserLevel, string> = {
  everyone: "Everyone",
  subscriber: "Subscribers (and founders)",
  regular: "Regulars",
  twitch_vip: "VIPs",
  moderator: "Moderators",
  owner: "Only me (the broadcaster)",
};

/** The same, short, for a badge in the list. */
export const LEVEL_BADGES: Record<UserLevel, string> = {
  everyone: "everyone",
  subscriber: "subscribers+",
  regular: "regulars+",
  twitch_vip: "VIPs+",
  moderator: "moderators+",
  owner: "broadcaster only",
};

export const LIMITS = {
  textLength: CHAT_BOT_LIMITS.textLength,
  nameLength: CHAT_BOT_LIMITS.commandNameLength,
  cooldown: CHAT_BOT_LIMITS.cooldownSeconds,
  /** What a new command's cooldown is when the streamer leaves it (Nightbot's and chat's default). */
  defaultCooldown: 30,
  count: CHAT_BOT_LIMITS.count,
} as const;

/** A command's name as the form accepts it: an optional "!" and 1–32 letters, digits or _. */
export const NAME_PATTERN = /^!?[A-Za-z0-9_]{1,32}$/;

/** What an alias without a text of its own answers with: the caller's words (server/custom/management.ts). */
export const ALIAS_PASS_THROUGH = "$(query)";

export interface CustomCommand {
  /** Lower case, without "!". */
  name: string;
  response: string;
  userLevel: UserLevel;
  cooldownSeconds: number;
  /** Per viewer, on top of `cooldownSeconds`: 0 (none) or 5–300; moderators and the broadcaster exempt. */
  userCooldownSeconds: number;
  aliasTarget: string | null;
  count: number;
  createdAt: string;
  updatedAt: string;
}

export interface CommandList {
  items: CustomCommand[];
  limit: number;
}

/** `POST /custom-commands/test`. */
export interface PreviewReply {
  answered: boolean;
  text: string | null;
  reason: string | null;
  countsUse: boolean;
  count: number;
}

export interface ImportNote {
  name: string;
  why: string;
}

/** A command the import would add, in the plan's words (server/custom/changes.ts). */
export interface PlannedCommand {
  name: string;
  response: string;
  level: UserLevel;
  cooldownSeconds: number;
  aliasOf: string | null;
  count: number;
}

/** `POST /custom-commands/import`: the plan (`applied: false`) or what was stored. */
export interface ImportResult {
  format: "nightbot" | "streamelements";
  add?: PlannedCommand[];
  adjusted: ImportNote[];
  conflicts: ImportNote[];
  unsupported: ImportNote[];
  applied: boolean;
  stored?: CustomCommand[];
}

export interface Regular {
  twitchUserId: string;
  login: string;
  createdAt: string;
}

export interface RegularList {
  items: Regular[];
  limit: number;
}

export const API = "/api/dashboard/custom-commands";

/** A command's own path (`/custom-commands/discord`). */
export function commandPath(name: string): string {
  return `${API}/${encodeURIComponent(name)}`;
}

/** `discord` → `!discord` (a name that already has its "!" is kept). */
export function shown(name: string): string {
  return name.startsWith("!") ? name : `!${name}`;
}

/** Whether a response shows `$(count)` (a counter), as chat counts it. */
export function isCounter(response: string): boolean {
  return /\$\(\s*count\s*\)/i.test(response);
}

/** "none", "30 s". */
export function cooldownText(seconds: number): string {
  return seconds === 0 ? "no cooldown" : `${seconds} s cooldown`;
}
