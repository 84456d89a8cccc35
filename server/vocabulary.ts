/**
 * cuebot's words, defined once: the values a role, a connection state, a built-in command's name, a
 * user level or an alert type may take, the limits the store checks, and the alert as the overlay gets
 * it. The store's columns (db/schema-enums.ts), the features, the API and the browser (the dashboard,
 * server/web/app/, and the overlay page, server/web/overlay/) all take them from here, so they cannot
 * drift apart (tests/architecture/vocabulary.test.ts). Pure constants and types: it imports nothing.
 */

// ---- Accounts ----

/** An account's role, which sets its quotas (docs/limits.md, "Roles"). */
export const ROLES = ["Default", "Pro", "VIP", "Partner"] as const;
export type Role = (typeof ROLES)[number];

/** Where a live connection of an account stands (native chat, alerts, and each alert type). */
export const CONNECTION_STATES = ["off", "needs_consent", "connecting", "connected", "error"] as const;
export type ConnectionState = (typeof CONNECTION_STATES)[number];

/** Where an account's connection to OBS Studio stands (obs-websocket 5; CONTRACT §6 "Actions"). */
export const OBS_STATES = ["off", "connecting", "connected", "auth_failed", "unreachable", "error"] as const;
export type ObsState = (typeof OBS_STATES)[number];

/** Who connects to OBS: cuebot itself, or the overlay page open in OBS as a browser source. */
export const OBS_VIAS = ["server", "overlay"] as const;
export type ObsVia = (typeof OBS_VIAS)[number];

/** obs-websocket's address when the streamer gives none (OBS 28+ on the same machine). */
export const OBS_DEFAULT_URL = "ws://127.0.0.1:4455";

/** The alert kinds an action's trigger names (the contract's words: `sub` is the alerts' `subscribe`). */
export const ACTION_ALERT_KINDS = ["follow", "sub", "resub", "gift", "cheer", "raid", "redemption"] as const;
export type ActionAlertKind = (typeof ACTION_ALERT_KINDS)[number];

// ---- Built-in commands ----

/** The built-in chat commands, in the order the dashboard lists them (their definitions: server/bot/). */
export const COMMAND_NAMES = [
  "followage",
  "shoutout",
  "magic8",
  "clip",
  "roulette",
  "pick",
  "dice",
  "coinflip",
  "rank",
  "lastmatch",
  "today",
  "stats",
] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

/**
 * Why a chat command got no reply, when a limit kept it from chat (stored with the call, shown in the
 * activity feed and the demo chat): the command's cooldown, the viewer's 3 answers per 30 s, a user
 * level below the command's, the channel's chat budget for the minute.
 */
export const COMMAND_REFUSALS = ["cooldown", "viewer_limit", "user_level", "chat_budget"] as const;
export type CommandRefusal = (typeof COMMAND_REFUSALS)[number];

/**
 * The header Bot setup's "Test this line" sends with its call to a bot route (`1`): the call is
 * answered as the bot's would be, and recorded as a test, not a viewer's call.
 */
export const TEST_CALL_HEADER = "x-cuebot-test";

/** A built-in command's longest cooldown, which the store and the dashboard's form both hold to. */
export const MAX_COOLDOWN_SECONDS = 3600;
/** Ban API timeouts (the roulette's): 1 s to 2 weeks (reference/twitch.md §2.9). */
export const MAX_TIMEOUT_SECONDS = 1_209_600;

/** The built-in commands that report on the streamer's game player (the game API). */
export const GAME_COMMANDS = [
  "rank",
  "lastmatch",
  "today",
  "stats",
] as const satisfies readonly CommandName[];
export type GameCommandName = (typeof GAME_COMMANDS)[number];

/** The game's regions (the provider's shards), as a player is set and the game API's path takes them. */
export const GAME_REGIONS = ["na", "eu", "ap", "kr", "latam", "br"] as const;
export type GameRegion = (typeof GAME_REGIONS)[number];

// ---- A channel's own commands, quotes and timers ----

/**
 * Who may run a custom command: Nightbot's user levels, lowest to highest (each admits the levels
 * above it). VIP ranks above regular, as on Nightbot (reference/chat-bot-commands.md §1).
 */
export const USER_LEVELS = ["everyone", "subscriber", "regular", "twitch_vip", "moderator", "owner"] as const;
export type UserLevel = (typeof USER_LEVELS)[number];

/**
 * What a channel's own chat-bot data may hold (custom commands, regulars, quotes, timers; issue 24),
 * checked on every write (db/chat-bot-rules.ts); the dashboard's forms say them before a round trip.
 */
export const CHAT_BOT_LIMITS = {
  customCommandsPerAccount: 500,
  quotesPerAccount: 10_000,
  timersPerAccount: 50,
  /** Not a Nightbot limit: it keeps a careless import or a moderator's loop from growing without end. */
  regularsPerAccount: 1_000,
  /** A chat line's length on Twitch, in code points; responses, quote texts and timer messages alike. */
  textLength: 500,
  commandNameLength: 32,
  timerNameLength: 50,
  gameLength: 200,
  /** A cooldown is 0 (none) or within this range, in seconds. */
  cooldownSeconds: { min: 5, max: 300 },
  intervalMinutes: { min: 5, max: 60 },
  minChatLines: { min: 0, max: 100, default: 2 },
  /** What a count column holds (a 32-bit integer on both databases). */
  count: { min: -2_147_483_648, max: 2_147_483_647 },
} as const;

// ---- Stream alerts ----

/**
 * Stream alerts (issue 25), in the order the dashboard lists them: a follow, a new (not gifted) sub, a
 * resub shared in chat, a gift of N subs (one alert however many recipients), a cheer, an incoming
 * raid, a channel-points redemption.
 */
export const ALERT_TYPES = ["follow", "subscribe", "resub", "gift", "cheer", "raid", "redemption"] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

/** What an uploaded alert asset is. */
export const ALERT_ASSET_KINDS = ["image", "sound"] as const;
export type AlertAssetKind = (typeof ALERT_ASSET_KINDS)[number];

/** A sub's tier as Twitch's "1000"/"2000"/"3000" read into "1"/"2"/"3" (Prime arrives as "1"). */
export const SUB_TIERS = ["1", "2", "3"] as const;
export type SubTier = (typeof SUB_TIERS)[number];

/** What an alert's template may name, each in braces: `{user} cheered {amount} bits!`. */
export const ALERT_PLACEHOLDERS = [
  "user",
  "amount",
  "months",
  "tier",
  "reward",
  "message",
  "viewers",
] as const;
export type AlertPlaceholder = (typeof ALERT_PLACEHOLDERS)[number];

/** The event's fields, read from Twitch's payload (server/alerts/parse.ts). Never undefined. */
export interface AlertFields {
  /** Display name; "Anonymous" when Twitch sends none; the raiding channel for a raid. */
  user: string;
  /** Bits (cheer), subs gifted (gift), viewers (raid), cumulative months (resub); else null. */
  amount: number | null;
  /** Resub: cumulative months; else null. */
  months: number | null;
  tier: SubTier | null;
  /** Redemption: the reward's title; else null. */
  reward: string | null;
  /** What the viewer wrote (resub message, cheer message, redemption input): plain text, ≤ 500. */
  message: string | null;
}

/** A type's settings; a type never set has the defaults (defaultAlertSettings in db/alert-rules.ts). */
export interface AlertSettings {
  enabled: boolean;
  /** ≤ 200 characters, with ALERT_PLACEHOLDERS in braces. */
  template: string;
  /** cheer: bits ≥ N; raid: viewers ≥ N; gift: subs ≥ N; 0 = any (ignored for other types). */
  minAmount: number;
  /** 2–30. */
  durationSeconds: number;
  /** 0–100. */
  volume: number;
  imageId: number | null;
  soundId: number | null;
  /** A chat line sent through native chat when the alert shows, or null. */
  chatMessage: string | null;
}

/** What the store accepts of alerts, checked on every write; the dashboard says them before a round trip. */
export const ALERT_LIMITS = {
  /** An alert's template and its chat line, in code points. */
  templateLength: 200,
  minAmount: { min: 0, max: 1_000_000 },
  durationSeconds: { min: 2, max: 30 },
  volume: { min: 0, max: 100 },
  /** An uploaded image or sound, in bytes. */
  assetBytes: 1024 * 1024,
  assetsPerAccount: 20,
  /** The history keeps this many real alerts per account, the newest. */
  eventsKept: 200,
  /** …and, apart from them, this many tests and replays, so these never push real alerts out. */
  testEventsKept: 50,
} as const;

/** One alert as the overlay plays it (its alert stream's `data`). */
export interface Alert {
  /** The history row's id: grows with every alert of every account (the overlay's Last-Event-ID). */
  id: number;
  type: AlertType;
  fields: AlertFields;
  /** When it happened (Unix ms). */
  at: number;
  /** Sent from the dashboard's "send a test alert", not by Twitch. */
  test: boolean;
  /** The type's template filled with the fields (server/alerts/template.ts). */
  text: string;
  durationMs: number;
  imageId: number | null;
  soundId: number | null;
  /** 0–100. */
  volume: number;
}

/**
 * The size the overlay page is laid out for (web/assets/overlay.css: the card and the alerts), which
 * its OBS browser source should have: the usual canvas. Both overlay links (the full overlay and the
 * alerts-only one) take the same size.
 */
export const OVERLAY_SOURCE_SIZE = { width: 1920, height: 1080 } as const;

// ---- Chat moderation (issue 35) ----

/** The spam filters, in the order a line meets them (CONTRACT §6 "Chat moderation"). */
export const MODERATION_FILTERS = [
  "links",
  "caps",
  "symbols",
  "repetition",
  "emotes",
  "length",
  "terms",
] as const;
export type ModerationFilter = (typeof MODERATION_FILTERS)[number];

/** What a moderation log entry records (`GET /api/dashboard/moderation/log`). */
export const MODERATION_LOG_ACTIONS = ["deleted", "warned", "timeout", "ban", "permit", "shield"] as const;
export type ModerationLogAction = (typeof MODERATION_LOG_ACTIONS)[number];

/** `!permit <user>`: the chat trigger moderation reads ahead of every command (no custom command may take it). */
export const PERMIT_TRIGGER = "permit";

/** What a `terms` filter does to a line it catches. */
export const TERMS_ACTIONS = ["timeout", "ban"] as const;
export type TermsAction = (typeof TERMS_ACTIONS)[number];

/** What every filter has (CONTRACT §6). */
export interface FilterCommon {
  enabled: boolean;
  /** Chatters at this level and above are never caught. */
  exempt: UserLevel;
  timeoutSeconds: number;
  /** No warning line. */
  silent: boolean;
  /** The warning, after `@login`. */
  message: string;
}

/** Each filter's settings: the common ones and its own. */
export interface FilterSettings {
  links: FilterCommon & { allow: string[] };
  caps: FilterCommon & { minLength: number; percent: number };
  symbols: FilterCommon & { minLength: number; percent: number };
  repetition: FilterCommon & { max: number };
  emotes: FilterCommon & { max: number };
  length: FilterCommon & { max: number };
  terms: FilterCommon & { list: string[]; action: TermsAction };
}

/** The raid shield's settings (`active` and `until` are added by GET). */
export interface ShieldSettings {
  enabled: boolean;
  /** Distinct chatters caught (or sending the same text) … */
  chatters: number;
  /** … within this many seconds turn it on … */
  seconds: number;
  /** … and this many minutes without another trigger turn it off. */
  minutes: number;
}

/** Ranges the store and the dashboard check (a number setting outside its range is a 400 naming it). */
export const MODERATION_LIMITS = {
  timeoutSeconds: { min: 1, max: 1_209_600 },
  messageLength: 200,
  minLength: { min: 1, max: 500 },
  percent: { min: 1, max: 100 },
  repetitionMax: { min: 1, max: 500 },
  emotesMax: { min: 1, max: 500 },
  lengthMax: { min: 1, max: 500 },
  /** Host patterns in the links filter's allow list. */
  allowEntries: 10_000,
  allowEntryLength: 253,
  terms: 1_000,
  termLength: 200,
  /** `~/regex/` entries in the terms list: each runs on every chat line. */
  regexTerms: 100,
  /** One regex's compiled program (re2js instructions; `[a-z]{1,100}` is about 200). */
  regexSize: 200,
  /** All the list's regexes' programs together: the worst line costs about 1.5 ms. */
  regexTotalSize: 1_000,
  /** Characters after the first `*` of the terms (`*coin`: 4), all together: the worst line ~5 ms. */
  wildcardTails: 500,
  shieldChatters: { min: 2, max: 1_000 },
  shieldSeconds: { min: 1, max: 600 },
  shieldMinutes: { min: 1, max: 1_440 },
  /** How long `!permit` lets a chatter post links. */
  permitSeconds: 60,
  /** A caught line's text stays in the log this long. */
  logTextDays: 7,
} as const;

const common = (exempt: UserLevel, message: string): FilterCommon => ({
  enabled: true,
  exempt,
  timeoutSeconds: 600,
  silent: false,
  message,
});

/** Each filter's defaults, shown by the dashboard and used until the streamer changes them. */
export const DEFAULT_FILTER_SETTINGS: FilterSettings = {
  links: { ...common("regular", "please ask a moderator before posting links."), allow: [] },
  caps: { ...common("subscriber", "please don't shout in all caps."), minLength: 15, percent: 70 },
  symbols: { ...common("subscriber", "please go easy on the symbols."), minLength: 15, percent: 50 },
  repetition: { ...common("subscriber", "please don't repeat yourself so much."), max: 10 },
  emotes: { ...common("subscriber", "please use fewer emotes."), max: 15 },
  length: { ...common("subscriber", "please keep your messages shorter."), max: 350 },
  terms: { ...common("moderator", "that word is not allowed here."), list: [], action: "timeout" },
};

export const DEFAULT_SHIELD_SETTINGS: ShieldSettings = {
  enabled: true,
  chatters: 8,
  seconds: 10,
  minutes: 5,
};

// ---- Actions (issue 37) ----

/**
 * What an account's actions may hold, checked when one is saved and by the
 * store (db/actions.ts); the dashboard's editor says them before a round trip.
 */
export const ACTION_LIMITS = {
  perAccount: 500,
  nameLength: 50,
  cooldownSeconds: { min: 0, max: 3600 },
  steps: 20,
  /** A chat line's length on Twitch, and a text source's text, in code points. */
  textLength: 500,
  /** An OBS scene's or source's name, in code points. */
  obsNameLength: 256,
  /** A `wait` step, and a timed source's `seconds`. */
  waitSeconds: 60,
  sourceSeconds: 3600,
  /** A redemption trigger's reward title (Twitch allows 45 characters). */
  rewardLength: 45,
  /** Runs kept in each action's run log. */
  runsKept: 50,
} as const;
