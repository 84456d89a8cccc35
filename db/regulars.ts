import { and, asc, count, eq } from "drizzle-orm";
import { CHAT_BOT_LIMITS, checkLogin, checkTwitchUserId, limitReached } from "./chat-bot-rules.ts";
import type { DataStore, Tables } from "./data-store.ts";

/** A chatter on the streamer's list of regulars (Nightbot's `regular` user level). */
export interface Regular {
  twitchUserId: string;
  /** Lower case, as last added. */
  login: string;
  createdAt: number;
}

/** Who to take off the list: by Twitch user id (the stable identity) or by login (as typed in chat). */
export type RegularRef = { twitchUserId: string } | { login: string };

/** The columns a Regular is read from. */
const regularColumns = (t: Tables) => ({
  twitchUserId: t.regulars.twitchUserId,
  login: t.regulars.login,
  createdAt: t.regulars.createdAt,
});

export async function listRegulars(s: DataStore, accountId: number): Promise<Regular[]> {
  return await s.all((db, t) =>
    db
      .select(regularColumns(t))
      .from(t.regulars)
      .where(eq(t.regulars.accountId, accountId))
      .orderBy(asc(t.regulars.login), asc(t.regulars.twitchUserId)),
  );
}

export async function isRegular(s: DataStore, accountId: number, twitchUserId: string): Promise<boolean> {
  const row = await s.first((db, t) =>
    db
      .select({ login: t.regulars.login })
      .from(t.regulars)
      .where(and(eq(t.regulars.accountId, accountId), eq(t.regulars.twitchUserId, twitchUserId)))
      .limit(1),
  );
  return row !== undefined;
}

/**
 * Puts a chatter on the list. Adding one who is already there keeps their place and takes their
 * login as given (they may have renamed); true when they were not on the list before. Refused when
 * the login or id cannot be Twitch's, or the list is full.
 */
export async function addRegular(
  s: DataStore,
  accountId: number,
  chatter: { twitchUserId: string; login: string },
  now: number,
): Promise<boolean> {
  const twitchUserId = checkTwitchUserId(chatter.twitchUserId);
  const login = checkLogin(chatter.login);
  return await s.transaction(async (tx) => {
    const known = await tx.first((db, t) =>
      db
        .update(t.regulars)
        .set({ login })
        .where(and(eq(t.regulars.accountId, accountId), eq(t.regulars.twitchUserId, twitchUserId)))
        .returning({ login: t.regulars.login }),
    );
    if (known) return false;
    const listed = await tx.first((db, t) =>
      db.select({ n: count() }).from(t.regulars).where(eq(t.regulars.accountId, accountId)),
    );
    if ((listed?.n ?? 0) >= CHAT_BOT_LIMITS.regularsPerAccount) {
      throw limitReached("login", "regulars", CHAT_BOT_LIMITS.regularsPerAccount);
    }
    const added = await tx.first((db, t) =>
      db
        .insert(t.regulars)
        .values({ accountId, twitchUserId, login, createdAt: now })
        .onConflictDoNothing()
        .returning({ login: t.regulars.login }),
    );
    return added !== undefined;
  });
}

/** Takes a chatter off the list; the regulars removed (a login may match none or, after renames, several). */
export async function removeRegular(s: DataStore, accountId: number, who: RegularRef): Promise<Regular[]> {
  const match = (t: Tables) =>
    "twitchUserId" in who
      ? eq(t.regulars.twitchUserId, who.twitchUserId)
      : eq(t.regulars.login, who.login.trim().replace(/^@/, "").toLowerCase());
  return await s.all((db, t) =>
    db
      .delete(t.regulars)
      .where(and(eq(t.regulars.accountId, accountId), match(t)))
      .returning(regularColumns(t)),
  );
}
