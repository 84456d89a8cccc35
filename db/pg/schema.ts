import { bigint, boolean, index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
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
import { byteaBuffer } from "./bytea.ts";
import { jsonText } from "./json-text.ts";

/**
 * The PostgreSQL twin of db/sqlite/schema.ts: the same tables, columns, keys and indexes, and the same row
 * types (tests/db/schema-parity.test.ts holds them equal), so query code and `db copy` move rows
 * across unchanged.
 *
 * Instants stay Unix milliseconds, as `bigint` read as a JS number (exact up to 2^53 ms, the year
 * 287,396), instead of `timestamptz`: a `Date` would change every row type and every comparison of
 * the shared query code, for a nicer look in psql only (`to_timestamp(at / 1000.0)` gives that).
 * Booleans are real booleans, ids are identities `BY DEFAULT` (so `db copy` can keep them), and JSON
 * held as text on SQLite is `jsonb` here (see json-text.ts).
 */
const ms = (name: string) => bigint(name, { mode: "number" });
const createdAt = () => ms("created_at").notNull();
const updatedAt = () => ms("updated_at").notNull();
const flag = (name: string) => boolean(name);
/** JSON, whose row type is its text as on SQLite (see json-text.ts). */
const json = (name: string) => jsonText(name);
/** Raw bytes, read as a Buffer as on SQLite (see bytea.ts). */
const bytes = (name: string) => byteaBuffer(name);
/** The account a row belongs to, deleted with it. */
const accountRef = () => integer("account_id").references(() => accounts.id, { onDelete: "cascade" });
/** The account a row belongs to, as the row's key: one row per account. */
const accountKey = () => accountRef().primaryKey();
/** API keys and overlay tokens: a lookup hash and the sealed value (as in db/sqlite/schema.ts). */
const credentialColumns = () => ({
  accountId: accountKey(),
  lookupHash: text("lookup_hash").notNull().unique(),
  encrypted: text("encrypted").notNull(),
  createdAt: createdAt(),
  lastUsedAt: ms("last_used_at"),
});

export const accounts = pgTable("accounts", {
  id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
  twitchUserId: text("twitch_user_id").notNull().unique(),
  // Logins are stored lower-cased (normalizeLogin), as on SQLite, so a plain unique index suffices.
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

export const apiKeys = pgTable("api_keys", credentialColumns());

export const overlayTokens = pgTable("overlay_tokens", credentialColumns());

export const sessions = pgTable(
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

export const oauthTokens = pgTable("oauth_tokens", {
  accountId: accountKey(),
  accessTokenEncrypted: text("access_token_encrypted").notNull(),
  refreshTokenEncrypted: text("refresh_token_encrypted").notNull(),
  scopes: json("scopes").notNull().default("[]"),
  expiresAt: ms("expires_at").notNull(),
  validatedAt: ms("validated_at"),
  updatedAt: updatedAt(),
});

export const auditLog = pgTable(
  "audit_log",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    at: ms("at").notNull(),
    accountId: integer("account_id"),
    login: text("login").notNull(),
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    detail: json("detail").notNull().default("{}"),
  },
  (t) => [index("audit_account_idx").on(t.accountId, t.at)],
);

export const commandSettings = pgTable(
  "command_settings",
  {
    accountId: accountRef().notNull(),
    command: text("command").notNull(),
    enabled: flag("enabled").notNull().default(true),
    cooldownSeconds: integer("cooldown_seconds").notNull().default(0),
    options: json("options").notNull().default("{}"),
    aliases: json("aliases"),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.command] })],
);

export const overlayState = pgTable("overlay_state", {
  accountId: accountKey(),
  state: json("state").notNull().default("{}"),
  version: integer("version").notNull().default(0),
  updatedAt: updatedAt(),
});

export const events = pgTable(
  "events",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
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

export const chatSettings = pgTable("chat_settings", {
  accountId: accountKey(),
  enabled: flag("enabled").notNull().default(false),
  state: text("state", { enum: CHAT_STATES }).notNull().default("off"),
  stateSince: ms("state_since"),
  reason: text("reason"),
  updatedAt: updatedAt(),
});

export const chatBots = pgTable("chat_bots", {
  accountId: accountKey(),
  twitchUserId: text("twitch_user_id").notNull(),
  login: text("login").notNull(),
  displayName: text("display_name").notNull(),
  accessTokenEncrypted: text("access_token_encrypted").notNull(),
  refreshTokenEncrypted: text("refresh_token_encrypted").notNull(),
  scopes: json("scopes").notNull().default("[]"),
  expiresAt: ms("expires_at").notNull(),
  needsReauth: flag("needs_reauth").notNull().default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const customCommands = pgTable(
  "custom_commands",
  {
    accountId: accountRef().notNull(),
    name: text("name").notNull(),
    response: text("response").notNull(),
    userLevel: text("user_level", { enum: USER_LEVELS }).notNull().default("everyone"),
    cooldownSeconds: integer("cooldown_seconds").notNull().default(0),
    userCooldownSeconds: integer("user_cooldown_seconds").notNull().default(0),
    aliasTarget: text("alias_target"),
    count: integer("count").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.name] })],
);

export const regulars = pgTable(
  "regulars",
  {
    accountId: accountRef().notNull(),
    twitchUserId: text("twitch_user_id").notNull(),
    login: text("login").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.twitchUserId] }),
    index("regulars_account_login_idx").on(t.accountId, t.login),
  ],
);

export const quotes = pgTable(
  "quotes",
  {
    accountId: accountRef().notNull(),
    number: integer("number").notNull(),
    text: text("text").notNull(),
    searchText: text("search_text").notNull(),
    game: text("game"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.number] })],
);

export const quoteCounters = pgTable("quote_counters", {
  accountId: accountKey(),
  lastNumber: integer("last_number").notNull().default(0),
});

export const timers = pgTable(
  "timers",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    accountId: accountRef().notNull(),
    name: text("name").notNull(),
    message: text("message").notNull(),
    intervalMinutes: integer("interval_minutes").notNull(),
    minChatLines: integer("min_chat_lines").notNull().default(2),
    enabled: flag("enabled").notNull().default(true),
    lastPostedAt: ms("last_posted_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("timers_account_name_idx").on(t.accountId, t.name)],
);

export const alertChannels = pgTable("alert_channels", {
  accountId: accountKey(),
  enabled: flag("enabled").notNull().default(false),
  state: text("state", { enum: CHAT_STATES }).notNull().default("off"),
  stateSince: ms("state_since"),
  reason: text("reason"),
  updatedAt: updatedAt(),
});

export const alertAssets = pgTable(
  "alert_assets",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    accountId: accountRef().notNull(),
    kind: text("kind", { enum: ALERT_ASSET_KINDS }).notNull(),
    contentType: text("content_type").notNull(),
    bytes: bytes("bytes").notNull(),
    size: integer("size").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("alert_assets_account_idx").on(t.accountId)],
);

export const alertSettings = pgTable(
  "alert_settings",
  {
    accountId: accountRef().notNull(),
    type: text("type", { enum: ALERT_TYPES }).notNull(),
    enabled: flag("enabled").notNull().default(true),
    template: text("template").notNull(),
    minAmount: integer("min_amount").notNull().default(0),
    durationSeconds: integer("duration_seconds").notNull().default(6),
    volume: integer("volume").notNull().default(80),
    imageId: integer("image_id").references(() => alertAssets.id, { onDelete: "set null" }),
    soundId: integer("sound_id").references(() => alertAssets.id, { onDelete: "set null" }),
    chatMessage: text("chat_message"),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.type] })],
);

export const alertEvents = pgTable(
  "alert_events",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    accountId: accountRef().notNull(),
    type: text("type", { enum: ALERT_TYPES }).notNull(),
    eventKey: text("event_key").notNull(),
    fields: json("fields").notNull(),
    test: flag("test").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("alert_events_account_key_idx").on(t.accountId, t.eventKey),
    index("alert_events_account_id_idx").on(t.accountId, t.id),
  ],
);

export const moderationChannels = pgTable("moderation_channels", {
  accountId: accountKey(),
  enabled: flag("enabled").notNull().default(false),
  state: text("state", { enum: CHAT_STATES }).notNull().default("off"),
  stateSince: ms("state_since"),
  reason: text("reason"),
  updatedAt: updatedAt(),
});

export const moderationRules = pgTable("moderation_rules", {
  accountId: accountKey(),
  filters: json("filters").notNull(),
  shield: json("shield").notNull(),
  shieldUntil: ms("shield_until"),
  updatedAt: updatedAt(),
});

export const moderationLog = pgTable(
  "moderation_log",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
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

export const obsSettings = pgTable("obs_settings", {
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

export const actions = pgTable(
  "actions",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
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

export const actionRuns = pgTable(
  "action_runs",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
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
