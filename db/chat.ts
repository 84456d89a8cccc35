import { eq } from "drizzle-orm";
import type { DataStore } from "./data-store.ts";
import type { ChatState } from "./schema-enums.ts";
import type { Sealer } from "./sealing.ts";
import type { chatSettings } from "./sqlite/schema.ts";

/** What is stored of an account's native chat: the streamer's switch and the last reported state. */
export interface StoredChatSettings {
  enabled: boolean;
  state: ChatState;
  stateSince: number | null;
  reason: string | null;
  updatedAt: number;
}

function toSettings(row: typeof chatSettings.$inferSelect): StoredChatSettings {
  return {
    enabled: row.enabled,
    state: row.state,
    stateSince: row.stateSince,
    reason: row.reason,
    updatedAt: row.updatedAt,
  };
}

export async function readChatSettings(s: DataStore, accountId: number): Promise<StoredChatSettings | null> {
  const row = await s.first((db, t) =>
    db.select().from(t.chatSettings).where(eq(t.chatSettings.accountId, accountId)).limit(1),
  );
  return row ? toSettings(row) : null;
}

/** Turns native chat on or off for an account (the state is then reported by the running server). */
export function writeChatEnabled(
  s: DataStore,
  accountId: number,
  enabled: boolean,
  now: number,
): Promise<void> {
  return s.run((db, t) =>
    db
      .insert(t.chatSettings)
      .values({ accountId, enabled, updatedAt: now })
      .onConflictDoUpdate({ target: t.chatSettings.accountId, set: { enabled, updatedAt: now } }),
  );
}

/** Records the connection state the running server sees (for the panel after a restart, and the CLI). */
export function writeChatState(
  s: DataStore,
  accountId: number,
  state: ChatState,
  reason: string | null,
  now: number,
): Promise<void> {
  return s.run((db, t) =>
    db
      .insert(t.chatSettings)
      .values({ accountId, state, stateSince: now, reason, updatedAt: now })
      .onConflictDoUpdate({
        target: t.chatSettings.accountId,
        set: { state, stateSince: now, reason, updatedAt: now },
      }),
  );
}

/** Accounts whose streamer turned native chat on. */
export async function listChatEnabledAccounts(s: DataStore): Promise<number[]> {
  const rows = await s.all((db, t) =>
    db
      .select({ accountId: t.chatSettings.accountId })
      .from(t.chatSettings)
      .where(eq(t.chatSettings.enabled, true)),
  );
  return rows.map((r) => r.accountId);
}

/** Every account with a chat row, with what the running server last reported (CLI listing). */
export async function listChatStates(s: DataStore): Promise<({ accountId: number } & StoredChatSettings)[]> {
  const rows = await s.all((db, t) => db.select().from(t.chatSettings));
  return rows.map((row) => ({ accountId: row.accountId, ...toSettings(row) }));
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
  s: DataStore,
  box: Sealer,
  accountId: number,
  bot: ChatBotAccount,
  now: number,
): Promise<void> {
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
  return s.run((db, t) =>
    db
      .insert(t.chatBots)
      .values(row)
      .onConflictDoUpdate({
        target: t.chatBots.accountId,
        set: { ...row, accountId: undefined, createdAt: undefined },
      }),
  );
}

export async function loadChatBot(
  s: DataStore,
  box: Sealer,
  accountId: number,
): Promise<ChatBotAccount | null> {
  const row = await s.first((db, t) =>
    db.select().from(t.chatBots).where(eq(t.chatBots.accountId, accountId)).limit(1),
  );
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

export function markChatBotNeedsReauth(s: DataStore, accountId: number, now: number): Promise<void> {
  return s.run((db, t) =>
    db
      .update(t.chatBots)
      .set({ needsReauth: true, updatedAt: now })
      .where(eq(t.chatBots.accountId, accountId)),
  );
}

export function deleteChatBot(s: DataStore, accountId: number): Promise<void> {
  return s.run((db, t) => db.delete(t.chatBots).where(eq(t.chatBots.accountId, accountId)));
}
