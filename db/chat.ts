import { eq } from "drizzle-orm";
import type { SecretBox } from "../server/identity/secrets.ts";
import type { Db } from "./client.ts";
import { type ChatState, chatBots, chatSettings } from "./schema.ts";

/** What is stored of an account's native chat: the streamer's switch and the last reported state. */
export interface StoredChatSettings {
  enabled: boolean;
  state: ChatState;
  stateSince: number | null;
  reason: string | null;
  updatedAt: number;
}

export function readChatSettings(db: Db, accountId: number): StoredChatSettings | null {
  const row = db.select().from(chatSettings).where(eq(chatSettings.accountId, accountId)).get();
  if (!row) return null;
  return {
    enabled: row.enabled,
    state: row.state,
    stateSince: row.stateSince,
    reason: row.reason,
    updatedAt: row.updatedAt,
  };
}

/** Turns native chat on or off for an account (the state is then reported by the running server). */
export function writeChatEnabled(db: Db, accountId: number, enabled: boolean, now: number): void {
  db.insert(chatSettings)
    .values({ accountId, enabled, updatedAt: now })
    .onConflictDoUpdate({ target: chatSettings.accountId, set: { enabled, updatedAt: now } })
    .run();
}

/** Records the connection state the running server sees (for the panel after a restart, and the CLI). */
export function writeChatState(
  db: Db,
  accountId: number,
  state: ChatState,
  reason: string | null,
  now: number,
): void {
  db.insert(chatSettings)
    .values({ accountId, state, stateSince: now, reason, updatedAt: now })
    .onConflictDoUpdate({
      target: chatSettings.accountId,
      set: { state, stateSince: now, reason, updatedAt: now },
    })
    .run();
}

/** Accounts whose streamer turned native chat on. */
export function listChatEnabledAccounts(db: Db): number[] {
  return db
    .select({ accountId: chatSettings.accountId })
    .from(chatSettings)
    .where(eq(chatSettings.enabled, true))
    .all()
    .map((r) => r.accountId);
}

/** Every account with a chat row, with what the running server last reported (CLI listing). */
export function listChatStates(db: Db): ({ accountId: number } & StoredChatSettings)[] {
  return db
    .select()
    .from(chatSettings)
    .all()
    .map((row) => ({
      accountId: row.accountId,
      enabled: row.enabled,
      state: row.state,
      stateSince: row.stateSince,
      reason: row.reason,
      updatedAt: row.updatedAt,
    }));
}

/** A separate account that reads and speaks in a channel's chat (linked with its own login). */
export interface ChatBotAccount {
  twitchUserId: string;
  login: string;
  displayName: string;
  accessToken: string;
  refreshToken: string;
  scopes: string[];
  expiresAt: number;
  needsReauth: boolean;
}

const SEAL = "chat-bot-token";

export function storeChatBot(
  db: Db,
  box: SecretBox,
  accountId: number,
  bot: ChatBotAccount,
  now: number,
): void {
  const row = {
    accountId,
    twitchUserId: bot.twitchUserId,
    login: bot.login,
    displayName: bot.displayName,
    accessTokenEncrypted: box.seal(SEAL, bot.accessToken, accountId),
    refreshTokenEncrypted: box.seal(SEAL, bot.refreshToken, accountId),
    scopes: JSON.stringify(bot.scopes),
    expiresAt: bot.expiresAt,
    needsReauth: bot.needsReauth,
    createdAt: now,
    updatedAt: now,
  };
  db.insert(chatBots)
    .values(row)
    .onConflictDoUpdate({
      target: chatBots.accountId,
      set: { ...row, accountId: undefined, createdAt: undefined },
    })
    .run();
}

export function loadChatBot(db: Db, box: SecretBox, accountId: number): ChatBotAccount | null {
  const row = db.select().from(chatBots).where(eq(chatBots.accountId, accountId)).get();
  if (!row) return null;
  return {
    twitchUserId: row.twitchUserId,
    login: row.login,
    displayName: row.displayName,
    accessToken: box.open(SEAL, row.accessTokenEncrypted, accountId),
    refreshToken: box.open(SEAL, row.refreshTokenEncrypted, accountId),
    scopes: JSON.parse(row.scopes) as string[],
    expiresAt: row.expiresAt,
    needsReauth: row.needsReauth,
  };
}

export function markChatBotNeedsReauth(db: Db, accountId: number, now: number): void {
  db.update(chatBots)
    .set({ needsReauth: true, updatedAt: now })
    .where(eq(chatBots.accountId, accountId))
    .run();
}

export function deleteChatBot(db: Db, accountId: number): void {
  db.delete(chatBots).where(eq(chatBots.accountId, accountId)).run();
}
