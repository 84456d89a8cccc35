import { eq } from "drizzle-orm";
import type { DataStore } from "./data-store.ts";
import type { Sealer } from "./sealing.ts";
import { type SwitchedFeature, switchedFeature } from "./switched-features.ts";

/** Native chat's switch and the state the running server last reported (db/switched-features.ts). */
export type StoredChatSettings = SwitchedFeature;

const chat = switchedFeature("chatSettings");
export const readChatSettings = chat.read;
export const writeChatEnabled = chat.setEnabled;
export const writeChatState = chat.writeState;
export const listChatEnabledAccounts = chat.listEnabled;
/** Every account with a chat row, with what the running server last reported (CLI listing). */
export const listChatStates = chat.list;

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
