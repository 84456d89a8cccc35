import { blob, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import {
  ALERT_ASSET_KINDS,
  ALERT_TYPES,
  CHAT_STATES,
  COMMAND_REFUSALS,
  MODERATION_FILTERS,
  MODERATION_LOG_ACTIONS,
  OBS_STATES,
  OBS_VIAS,
  ROLES,
  USER_LEVELS,
} from "../schema-enums.ts";

/**
 * Column helpers, so each table says what its columns are (the same names as db/pg/schema.ts, in
 * PostgreSQL's types there). Times are stored as Unix milliseconds (integers) so they sort and compare
 * without parsing.
 */
const ms = (name: string) => integer(name);
const createdAt = () => ms("created_at").notNull();
const updatedAt = () => ms("updated_at").notNull();
const flag = (name: string) => integer(name, { mode: "boolean" });
/** JSON kept as text (jsonb on PostgreSQL). */
const json = (name: string) => text(name);
/** Raw bytes (bytea on PostgreSQL), read as a Buffer. */
const bytes = (name: string) => blob(name, { mode: "buffer" });
/** The account a row belongs to, deleted with it. */
const accountRef = () => integer("account_id").references(() => accounts.id, { onDelete: "cascade" });
/** The account a row belongs to, as the row's key: one row per account. */
const accountKey = () => accountRef().primaryKey();
/**
 * Secrets handed to clients (API keys, overlay tokens): looked up by SHA-256, and kept AES-256-GCM
 * encrypted (AAD = account id) so the owner can reveal them; the plaintext is never stored.
 */
const credentialColumns = () => ({
  accountId: accountKey(),
  lookupHash: text("lookup_hash").notNull().unique(),
  encrypted: text("encrypted").notNull(),
  createdAt: createdAt(),
  lastUsedAt: ms("last_used_at"),
});

/** One streamer channel. `twitchUserId` is the stable identity; `login` follows renames. */
export const accounts = sqliteTable("accounts", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  twitchUserId: text("twitch_user_id").notNull().unique(),
  login: text("login").notNull().unique(),
  displayName: text("display_name").notNull(),
  profileImageUrl: text("profile_image_url").notNull().default(""),
  timezone: text("timezone").notNull().default("UTC"),
  role: text("role", { enum: ROLES }).notNull().default("Default"),
  panelLimitOverride: integer("panel_limit_override"),
  needsReauth: flag("needs_reauth").notNull().default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const apiKeys = sqliteTable("api_keys", credentialColumns());

export const overlayTokens = sqliteTable("overlay_tokens", credentialColumns());

/** Panel sessions: only the SHA-256 of the cookie value is stored. */
export const sessions = sqliteTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    accountId: accountRef().notNull(),
    expiresAt: ms("expires_at").notNull(),
    createdAt: createdAt(),
    lastSeenAt: ms("last_seen_at").notNull(),
    userAgent: text("user_agent").notNull().default(""),
  },
  (t) => [index("sessions_account_idx").on(t.accountId)],
);

/** The identity provider's tokens of one account, encrypted at rest. */
export const oauthTokens = sqliteTable("oauth_tokens", {
  accountId: accountKey(),
  accessTokenEncrypted: text("access_token_encrypted").notNull(),
  refreshTokenEncrypted: text("refresh_token_encrypted").notNull(),
  /** JSON array of granted scopes. */
  scopes: json("scopes").notNull().default("[]"),
  expiresAt: ms("expires_at").notNull(),
  validatedAt: ms("validated_at"),
  updatedAt: updatedAt(),
});

/**
 * Who did what to an account. Not tied to the account by a foreign key, so that the record of a
 * deletion outlives the account it describes.
 */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: ms("at").notNull(),
    accountId: integer("account_id"),
    login: text("login").notNull(),
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    /** JSON object with action-specific details; never a secret. */
    detail: json("detail").notNull().default("{}"),
  },
  (t) => [index("audit_account_idx").on(t.accountId, t.at)],
);

/** Per-channel settings of one chat command. */
export const commandSettings = sqliteTable(
  "command_settings",
  {
    accountId: accountRef().notNull(),
    command: text("command").notNull(),
    enabled: flag("enabled").notNull().default(true),
    cooldownSeconds: integer("cooldown_seconds").notNull().default(0),
    /** JSON object: command-specific options (custom texts, roulette duration, …). */
    options: json("options").notNull().default("{}"),
    /** JSON array of extra chat triggers (without "!"), lower case; the command's name always works. */
    aliases: json("aliases"),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.command] })],
);

/** What the account's overlays show; `version` increases with every publish. */
export const overlayState = sqliteTable("overlay_state", {
  accountId: accountKey(),
  state: json("state").notNull().default("{}"),
  version: integer("version").notNull().default(0),
  updatedAt: updatedAt(),
});

/** One chat-command call, for analytics and the activity feed. */
export const events = sqliteTable(
  "events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: accountRef().notNull(),
    at: ms("at").notNull(),
    command: text("command").notNull(),
    caller: text("caller").notNull().default(""),
    outcome: text("outcome").notNull(),
    latencyMs: integer("latency_ms").notNull().default(0),
    /** A run from the dashboard (a command's test, Bot setup's "Test this line"): listed, never counted. */
    test: flag("test").notNull().default(false),
    /** Why chat got no reply (a limit refused it; CommandRefusal): listed, never counted as a call. */
    refused: text("refused", { enum: COMMAND_REFUSALS }),
  },
  (t) => [index("events_account_at_idx").on(t.accountId, t.at)],
);

/**
 * Native chat (cuebot answers commands in the channel's chat itself): whether the streamer turned it
 * on, and the connection state the running server last reported (so the CLI can list it).
 */
export const chatSettings = sqliteTable("chat_settings", {
  accountId: accountKey(),
  enabled: flag("enabled").notNull().default(false),
  state: text("state", { enum: CHAT_STATES }).notNull().default("off"),
  stateSince: ms("state_since"),
  /** Why the state is `error` or `needs_consent`, in words for the streamer. */
  reason: text("reason"),
  updatedAt: updatedAt(),
});

/** The optional separate account that reads and speaks in chat for a channel; tokens encrypted at rest. */
export const chatBots = sqliteTable("chat_bots", {
  accountId: accountKey(),
  twitchUserId: text("twitch_user_id").notNull(),
  login: text("login").notNull(),
  displayName: text("display_name").notNull(),
  accessTokenEncrypted: text("access_token_encrypted").notNull(),
  refreshTokenEncrypted: text("refresh_token_encrypted").notNull(),
  /** JSON array of granted scopes. */
  scopes: json("scopes").notNull().default("[]"),
  expiresAt: ms("expires_at").notNull(),
  /** The bot's login no longer works (revoked): the streamer must link it again. */
  needsReauth: flag("needs_reauth").notNull().default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * A channel's own chat command (`!discord`), as Nightbot keeps them; db/custom-commands.ts holds the
 * rules (db/chat-bot-rules.ts) and the queries.
 */
export const customCommands = sqliteTable(
  "custom_commands",
  {
    accountId: accountRef().notNull(),
    /** Lower case, without "!": `[a-z0-9_]{1,32}`. */
    name: text("name").notNull(),
    response: text("response").notNull(),
    userLevel: text("user_level", { enum: USER_LEVELS }).notNull().default("everyone"),
    /** 0 (none) or 5–300. */
    cooldownSeconds: integer("cooldown_seconds").notNull().default(0),
    /** Per chatter, on top of the global one: 0 (none) or 5–300; moderators and the broadcaster exempt. */
    userCooldownSeconds: integer("user_cooldown_seconds").notNull().default(0),
    /** Nightbot's `-a=!other`: the command runs `!other` with its response as input. */
    aliasTarget: text("alias_target"),
    /** `$(count)`: how many times the command answered (or what a moderator set). */
    count: integer("count").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.name] })],
);

/** Nightbot's "regular" user level: the chatters the streamer lists, by Twitch user id. */
export const regulars = sqliteTable(
  "regulars",
  {
    accountId: accountRef().notNull(),
    twitchUserId: text("twitch_user_id").notNull(),
    /** Lower case; follows the chatter's renames when they are added again. */
    login: text("login").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.twitchUserId] }),
    index("regulars_account_login_idx").on(t.accountId, t.login),
  ],
);

/** Numbered quotes; a deleted quote's number is never given again (quote_counters). */
export const quotes = sqliteTable(
  "quotes",
  {
    accountId: accountRef().notNull(),
    number: integer("number").notNull(),
    text: text("text").notNull(),
    /**
     * The text lower-cased by JavaScript, searched with LIKE: SQLite's lower() and LIKE fold ASCII
     * only and PostgreSQL's LIKE folds nothing, so folding once here makes search alike on both.
     */
    searchText: text("search_text").notNull(),
    /** The category being streamed when the quote was added, if known. */
    game: text("game"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.number] })],
);

/**
 * The last quote number given per account. Adding a quote bumps it (upsert … returning) in the
 * adding transaction, which also locks the row until commit: concurrent adds get distinct numbers.
 */
export const quoteCounters = sqliteTable("quote_counters", {
  accountId: accountKey(),
  lastNumber: integer("last_number").notNull().default(0),
});

/** Messages posted every N minutes while live, after M chat lines (Nightbot's timers). */
export const timers = sqliteTable(
  "timers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: accountRef().notNull(),
    name: text("name").notNull(),
    message: text("message").notNull(),
    /** 5–60. */
    intervalMinutes: integer("interval_minutes").notNull(),
    /** Chat lines that must have come since the timer's last post. */
    minChatLines: integer("min_chat_lines").notNull().default(2),
    enabled: flag("enabled").notNull().default(true),
    lastPostedAt: ms("last_posted_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("timers_account_name_idx").on(t.accountId, t.name)],
);

/**
 * Stream alerts (issue 25): whether the streamer turned them on, and the state of the EventSub
 * session the running server last reported (as chat_settings for native chat).
 */
export const alertChannels = sqliteTable("alert_channels", {
  accountId: accountKey(),
  enabled: flag("enabled").notNull().default(false),
  state: text("state", { enum: CHAT_STATES }).notNull().default("off"),
  stateSince: ms("state_since"),
  /** Why the state is `error` or `needs_consent`, in words for the streamer. */
  reason: text("reason"),
  updatedAt: updatedAt(),
});

/**
 * An uploaded alert image or sound, kept in the database (not the data folder) so every instance
 * serves it; its type was read from its bytes (db/alert-assets.ts).
 */
export const alertAssets = sqliteTable(
  "alert_assets",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: accountRef().notNull(),
    kind: text("kind", { enum: ALERT_ASSET_KINDS }).notNull(),
    contentType: text("content_type").notNull(),
    bytes: bytes("bytes").notNull(),
    size: integer("size").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("alert_assets_account_idx").on(t.accountId)],
);

/** One alert type's settings of an account; a type without a row has the defaults (db/alert-rules.ts). */
export const alertSettings = sqliteTable(
  "alert_settings",
  {
    accountId: accountRef().notNull(),
    type: text("type", { enum: ALERT_TYPES }).notNull(),
    enabled: flag("enabled").notNull().default(true),
    template: text("template").notNull(),
    /** cheer bits, raid viewers, gifted subs at least this (0 = any). */
    minAmount: integer("min_amount").notNull().default(0),
    durationSeconds: integer("duration_seconds").notNull().default(6),
    volume: integer("volume").notNull().default(80),
    imageId: integer("image_id").references(() => alertAssets.id, { onDelete: "set null" }),
    soundId: integer("sound_id").references(() => alertAssets.id, { onDelete: "set null" }),
    /** A thanks line sent in chat, or null. */
    chatMessage: text("chat_message"),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.type] })],
);

/**
 * The alerts of an account, newest 200 kept: the history, the overlay's catch-up and, through the
 * unique event key (the EventSub message id, or `test:<uuid>`), the dedupe across instances.
 */
export const alertEvents = sqliteTable(
  "alert_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: accountRef().notNull(),
    type: text("type", { enum: ALERT_TYPES }).notNull(),
    eventKey: text("event_key").notNull(),
    /** JSON object: the alert's fields (AlertFields). */
    fields: json("fields").notNull(),
    test: flag("test").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("alert_events_account_key_idx").on(t.accountId, t.eventKey),
    index("alert_events_account_id_idx").on(t.accountId, t.id),
  ],
);

/**
 * Chat moderation (issue 35): whether the streamer turned it on, and the state the running server last
 * reported (the shape of chat_settings and alert_channels, db/switched-features.ts).
 */
export const moderationChannels = sqliteTable("moderation_channels", {
  accountId: accountKey(),
  enabled: flag("enabled").notNull().default(false),
  state: text("state", { enum: CHAT_STATES }).notNull().default("off"),
  stateSince: ms("state_since"),
  reason: text("reason"),
  updatedAt: updatedAt(),
});

/**
 * An account's filter and shield settings as JSON (only what the streamer changed; the rest are the
 * defaults of server/vocabulary.ts), and until when the raid shield holds followers-only chat on.
 */
export const moderationRules = sqliteTable("moderation_rules", {
  accountId: accountKey(),
  filters: json("filters").notNull(),
  shield: json("shield").notNull(),
  shieldUntil: ms("shield_until"),
  updatedAt: updatedAt(),
});

/** What moderation did in a channel, newest first by id; the caught text is cleared after 7 days. */
export const moderationLog = sqliteTable(
  "moderation_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: accountRef().notNull(),
    at: ms("at").notNull(),
    userId: text("user_id").notNull(),
    userLogin: text("user_login").notNull(),
    userName: text("user_name").notNull(),
    filter: text("filter", { enum: MODERATION_FILTERS }),
    action: text("action", { enum: MODERATION_LOG_ACTIONS }).notNull(),
    seconds: integer("seconds"),
    text: text("text"),
    undone: flag("undone").notNull().default(false),
  },
  (t) => [
    index("moderation_log_account_id_idx").on(t.accountId, t.id),
    index("moderation_log_at_idx").on(t.at),
  ],
);

/**
 * An account's connection to OBS Studio (issue 37): the streamer's switch, address, who connects and
 * the obs-websocket password sealed (SealPurpose "obs-password"), and what the instance holding the
 * connection last saw: its state, OBS's version and its scene and input names (JSON arrays).
 */
export const obsSettings = sqliteTable("obs_settings", {
  accountId: accountKey(),
  enabled: flag("enabled").notNull().default(false),
  url: text("url").notNull(),
  via: text("via", { enum: OBS_VIAS }).notNull(),
  passwordSealed: text("password_sealed"),
  state: text("state", { enum: OBS_STATES }).notNull().default("off"),
  stateSince: ms("state_since"),
  reason: text("reason"),
  obsVersion: text("obs_version"),
  scenes: json("scenes").notNull(),
  sources: json("sources").notNull(),
  updatedAt: updatedAt(),
});

/**
 * The streamer's actions (issue 37): a trigger (JSON: ActionTrigger of server/actions/model.ts) and
 * steps (JSON: ActionStep[]) run in order, a cooldown, and how the last run ended.
 */
export const actions = sqliteTable(
  "actions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: accountRef().notNull(),
    name: text("name").notNull(),
    enabled: flag("enabled").notNull().default(true),
    cooldownSeconds: integer("cooldown_seconds").notNull().default(0),
    trigger: json("trigger").notNull(),
    steps: json("steps").notNull(),
    lastRunAt: ms("last_run_at"),
    lastRunOk: flag("last_run_ok"),
    lastRunError: text("last_run_error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("actions_account_id_idx").on(t.accountId, t.id)],
);

/** The run log: the newest 50 runs of each action, each step's outcome (JSON: StepOutcome[]). */
export const actionRuns = sqliteTable(
  "action_runs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    actionId: integer("action_id")
      .notNull()
      .references(() => actions.id, { onDelete: "cascade" }),
    accountId: accountRef().notNull(),
    at: ms("at").notNull(),
    ok: flag("ok").notNull(),
    cause: text("cause").notNull(),
    user: text("user").notNull(),
    steps: json("steps").notNull(),
  },
  (t) => [index("action_runs_action_id_idx").on(t.actionId, t.id)],
);
