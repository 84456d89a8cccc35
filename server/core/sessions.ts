// Dashboard sessions (CONTRACT §4): issued at login, checked on every panel request by the HTTP
// layer (http/session-auth.ts), ended at logout or when the account's Twitch grant is lost.
import type { Account } from "../../db/accounts.ts";
import { sha256Hex } from "../../db/lookup-hash.ts";
import {
  deleteSession,
  deleteSessionsOf,
  extendSession,
  findSession,
  insertSession,
} from "../../db/sessions.ts";
import type { CoreContext } from "./context.ts";
import { randomToken } from "./secrets.ts";

export const SESSION_COOKIE = "app_sess";
/** 30 days, renewed when used in its last half (CONTRACT §4; the Copenhagen Book's scheme). */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60_000;
const RENEW_WHEN_REMAINING_MS = SESSION_TTL_MS / 2;

/** 256 random bits: only the SHA-256 is stored, so a leaked database opens no session. */
export function newSessionToken(): string {
  return randomToken(32);
}

export interface IssuedSession {
  token: string;
  expiresAt: number;
}

export async function createSession(
  ctx: Pick<CoreContext, "db" | "clock">,
  accountId: number,
  userAgent: string,
): Promise<IssuedSession> {
  const now = ctx.clock.now();
  const token = newSessionToken();
  const expiresAt = now + SESSION_TTL_MS;
  await insertSession(
    ctx.db,
    { idHash: sha256Hex(token), accountId, expiresAt, userAgent: userAgent.slice(0, 300) },
    now,
  );
  return { token, expiresAt };
}

export interface ValidSession {
  account: Account;
  idHash: string;
  expiresAt: number;
  /** True when this validation pushed the expiry forward (the cookie must be re-sent). */
  renewed: boolean;
}

/** A well-formed token is 43 base64url characters; anything else is refused without a query. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export async function validateSession(
  ctx: Pick<CoreContext, "db" | "clock" | "accounts">,
  token: string,
): Promise<ValidSession | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const idHash = sha256Hex(token);
  const row = await findSession(ctx.db, idHash);
  if (!row) return null;
  const now = ctx.clock.now();
  if (row.expiresAt <= now) {
    await deleteSession(ctx.db, idHash);
    return null;
  }
  const account = await ctx.accounts.account(row.accountId);
  if (!account || account.needsReauth) return null;
  if (row.expiresAt - now < RENEW_WHEN_REMAINING_MS) {
    const expiresAt = now + SESSION_TTL_MS;
    await extendSession(ctx.db, idHash, expiresAt, now);
    return { account, idHash, expiresAt, renewed: true };
  }
  return { account, idHash, expiresAt: row.expiresAt, renewed: false };
}

export function endSession(ctx: Pick<CoreContext, "db">, token: string): Promise<void> {
  return deleteSession(ctx.db, sha256Hex(token));
}

export function endAllSessions(ctx: Pick<CoreContext, "db">, accountId: number): Promise<number> {
  return deleteSessionsOf(ctx.db, accountId);
}

/**
 * The account of the live session the token names, read only (no renewal, no clean-up: the route's
 * own validation does those), or null.
 */
export async function liveSessionAccount(
  ctx: Pick<CoreContext, "db" | "clock" | "accounts">,
  token: string,
): Promise<Account | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const row = await findSession(ctx.db, sha256Hex(token));
  if (!row || row.expiresAt <= ctx.clock.now()) return null;
  const account = await ctx.accounts.account(row.accountId);
  return account && !account.needsReauth ? account : null;
}

/** Whether the token names a live session: what the body limit asks before granting a larger body. */
export async function isLiveSession(
  ctx: Pick<CoreContext, "db" | "clock" | "accounts">,
  token: string,
): Promise<boolean> {
  return (await liveSessionAccount(ctx, token)) !== null;
}
