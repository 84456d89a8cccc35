import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { CHAT_STATES, ROLES } from "../schema-enums.ts";

/** Times are stored as Unix milliseconds (integers) so they sort and compare without parsing. */
const createdAt = () => integer("created_at").notNull();

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
  needsReauth: integer("needs_reauth", { mode: "boolean" }).notNull().default(false),
  createdAt: createdAt(),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * Secrets handed to clients (API keys, overlay tokens): looked up by SHA-256, and kept AES-256-GCM
 * encrypted (AAD = account id) so the owner can reveal them; the plaintext is never stored.
 */
export const apiKeys = sqliteTable("api_keys", {
  accountId: integer("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  lookupHash: text("lookup_hash").notNull().unique(),
  encrypted: text("encrypted").notNull(),
  createdAt: createdAt(),
  lastUsedAt: integer("last_used_at"),
});

export const overlayTokens = sqliteTable("overlay_tokens", {
  accountId: integer("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  lookupHash: text("lookup_hash").notNull().unique(),
  encrypted: text("encrypted").notNull(),
  createdAt: createdAt(),
  lastUsedAt: integer("last_used_at"),
});

/** Panel sessions: only the SHA-256 of the cookie value is stored. */
export const sessions = sqliteTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at").notNull(),
    createdAt: createdAt(),
    lastSeenAt: integer("last_seen_at").notNull(),
    userAgent: text("user_agent").notNull().default(""),
  },
  (t) => [index("sessions_account_idx").on(t.accountId)],
);

/** The identity provider's tokens of one account, encrypted at rest. */
export const oauthTokens = sqliteTable("oauth_tokens", {
  accountId: integer("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  accessTokenEncrypted: text("access_token_encrypted").notNull(),
  refreshTokenEncrypted: text("refresh_token_encrypted").notNull(),
  /** JSON array of granted scopes. */
  scopes: text("scopes").notNull().default("[]"),
  expiresAt: integer("expires_at").notNull(),
  validatedAt: integer("validated_at"),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * Who did what to an account. Not tied to the account by a foreign key, so that the record of a
 * deletion outlives the account it describes.
 */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: integer("at").notNull(),
    accountId: integer("account_id"),
    login: text("login").notNull(),
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    /** JSON object with action-specific details; never a secret. */
    detail: text("detail").notNull().default("{}"),
  },
  (t) => [index("audit_account_idx").on(t.accountId, t.at)],
);

/** Per-channel settings of one chat command. */
export const commandSettings = sqliteTable(
  "command_settings",
  {
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    command: text("command").notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    cooldownSeconds: integer("cooldown_seconds").notNull().default(0),
    /** JSON object: command-specific options (custom texts, roulette duration, …). */
    options: text("options").notNull().default("{}"),
    /** JSON array of extra chat triggers (without "!"), lower case; the command's name always works. */
    aliases: text("aliases"),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.command] })],
);

/** What the account's overlays show; `version` increases with every publish. */
export const overlayState = sqliteTable("overlay_state", {
  accountId: integer("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  state: text("state").notNull().default("{}"),
  version: integer("version").notNull().default(0),
  updatedAt: integer("updated_at").notNull(),
});

/** One chat-command call, for analytics and the activity feed. */
export const events = sqliteTable(
  "events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    at: integer("at").notNull(),
    command: text("command").notNull(),
    caller: text("caller").notNull().default(""),
    outcome: text("outcome").notNull(),
    latencyMs: integer("latency_ms").notNull().default(0),
  },
  (t) => [index("events_account_at_idx").on(t.accountId, t.at)],
);

/**
 * Native chat (cuebot answers commands in the channel's chat itself): whether the streamer turned it
 * on, and the connection state the running server last reported (so the CLI can list it).
 */
export const chatSettings = sqliteTable("chat_settings", {
  accountId: integer("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  enabled: integer("enabled", { mode: "boolean" }).notNull().default(false),
  state: text("state", { enum: CHAT_STATES }).notNull().default("off"),
  stateSince: integer("state_since"),
  /** Why the state is `error` or `needs_consent`, in words for the streamer. */
  reason: text("reason"),
  updatedAt: integer("updated_at").notNull(),
});

/** The optional separate account that reads and speaks in chat for a channel; tokens encrypted at rest. */
export const chatBots = sqliteTable("chat_bots", {
  accountId: integer("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  twitchUserId: text("twitch_user_id").notNull(),
  login: text("login").notNull(),
  displayName: text("display_name").notNull(),
  accessTokenEncrypted: text("access_token_encrypted").notNull(),
  refreshTokenEncrypted: text("refresh_token_encrypted").notNull(),
  /** JSON array of granted scopes. */
  scopes: text("scopes").notNull().default("[]"),
  expiresAt: integer("expires_at").notNull(),
  /** The bot's login no longer works (revoked): the streamer must link it again. */
  needsReauth: integer("needs_reauth", { mode: "boolean" }).notNull().default(false),
  createdAt: createdAt(),
  updatedAt: integer("updated_at").notNull(),
});
