import type { Account } from "../../db/accounts.ts";
import { setNeedsReauth } from "../../db/accounts.ts";
import {
  grantedScopes,
  listAccountsWithTokens,
  loadProviderTokens,
  markTokensValidated,
  type ProviderTokens,
  storeProviderTokens,
} from "../../db/oauth-tokens.ts";
import { StoreUnavailableError } from "../../db/store-unavailable.ts";
import type { CoreContext } from "../core/context.ts";
import { endAllSessions } from "../core/sessions.ts";
import { releaseLock, takeLock } from "../redis/lock.ts";
import type { SharedStores } from "../redis/shared-stores.ts";
import { HelixError } from "../twitch/helix-client.ts";
import { type IdentityProviderClient, IdentityProviderError, type ProviderTokenSet } from "./idp-client.ts";

/** The streamer must log in again: their provider grant is gone (revoked, password change…). */
export class ReauthRequiredError extends Error {
  constructor(readonly login: string) {
    super(`${login} needs to log in to cuebot again (the Twitch connection was revoked or expired)`);
  }
}

/** Where the tokens are stored: the database, sealed by the secrets, stamped by the clock. */
type TokenStore = Pick<CoreContext, "db" | "secrets" | "clock">;

/**
 * What refreshing and validating the tokens read: the stores, the identity provider (null when none
 * is configured), and Redis when instances share it (one refresh at a time across them).
 */
export interface TokenContext extends TokenStore, Pick<CoreContext, "log" | "accounts"> {
  readonly identityProvider: IdentityProviderClient | null;
  readonly shared: SharedStores | null;
}

export async function saveProviderTokens(
  ctx: TokenStore,
  accountId: number,
  tokens: ProviderTokenSet,
): Promise<void> {
  const now = ctx.clock.now();
  await storeProviderTokens(
    ctx.db,
    ctx.secrets,
    accountId,
    {
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      scopes: tokens.scopes,
      expiresAt: now + tokens.expiresIn * 1000,
      validatedAt: now,
    },
    now,
  );
}

/**
 * Whether a login's new grant replaces the stored one. A plain login asks Twitch for the base scopes
 * only (who logs in is not known before the callback), and a re-consent begun without a session asks
 * for the base scopes plus its feature's: storing such a grant would silently take away what the
 * streamer granted for native chat or alerts. So a grant that lacks any stored scope leaves the
 * stored tokens in place (the login's session does not need the new token), unless the stored grant
 * is no longer trusted (the account needs to log in again): then the new token is taken, whatever
 * it holds. Never narrows what a working account may do, never keeps a grant Twitch ended.
 */
export function loginReplacesGrant(
  stored: readonly string[],
  fresh: readonly string[],
  needsReauth: boolean,
): boolean {
  if (needsReauth) return true;
  const granted = new Set(fresh);
  return stored.every((scope) => granted.has(scope));
}

/**
 * Stores a login's tokens unless the stored grant is wider and still usable (loginReplacesGrant).
 */
export async function saveLoginTokens(
  ctx: TokenStore,
  accountId: number,
  tokens: ProviderTokenSet,
  needsReauth: boolean,
): Promise<void> {
  const stored = await grantedScopes(ctx.db, accountId);
  if (loginReplacesGrant(stored, tokens.scopes, needsReauth))
    await saveProviderTokens(ctx, accountId, tokens);
}

/** Concurrent refreshes of one account would race on a rotating refresh token: run one at a time. */
const refreshing = new WeakMap<object, Map<number, Promise<string>>>();

async function markNeedsReauth(ctx: TokenContext, account: Account): Promise<void> {
  await setNeedsReauth(ctx.db, account.id, true, ctx.clock.now());
  await endAllSessions(ctx, account.id);
  ctx.accounts.invalidate();
  ctx.log.warn("a streamer's Twitch connection ended; they must log in again", { login: account.login });
}

/**
 * Refreshes the account's access token and persists the rotated refresh token; returns the new access token.
 * `rejected`: the access token Twitch just refused; when it was already replaced meanwhile (another
 * call refreshed first), the replacement is returned without spending the refresh token again.
 */
export function refreshUserToken(ctx: TokenContext, account: Account, rejected?: string): Promise<string> {
  let inFlight = refreshing.get(ctx.db);
  if (!inFlight) {
    inFlight = new Map();
    refreshing.set(ctx.db, inFlight);
  }
  const existing = inFlight.get(account.id);
  if (existing) return existing;
  const map = inFlight;
  const run = (async () => {
    const idp = ctx.identityProvider;
    const seen = await loadProviderTokens(ctx.db, ctx.secrets, account.id);
    if (!idp || !seen) throw new ReauthRequiredError(account.login);
    // The token Twitch refused was already replaced (a refresh finished meanwhile): use the new one.
    if (rejected !== undefined && seen.accessToken !== rejected) return seen.accessToken;
    // Several instances: one refreshes at a time; whoever waited takes the tokens it stored.
    const unlock = ctx.shared ? await refreshLock(ctx.shared, account.id) : null;
    try {
      const stored = await loadProviderTokens(ctx.db, ctx.secrets, account.id);
      if (!stored) throw new ReauthRequiredError(account.login);
      if (stored.refreshToken !== seen.refreshToken) return stored.accessToken;
      return await refreshStored(ctx, idp, account, stored);
    } finally {
      await unlock?.();
    }
  })().finally(() => map.delete(account.id));
  inFlight.set(account.id, run);
  return run;
}

/**
 * After the provider refused a refresh token, how long to look for the rotated pair another process
 * may be storing, before concluding the grant is gone.
 */
const ROTATED_PAIR_WAIT_MS = 1_500;

/**
 * How long one instance may hold an account's refresh before another goes ahead without it: longer
 * than a refresh can take, storing the rotated pair included (KEEP_ROTATED_PAIR_MS plus one query's
 * deadline), or a waiting instance would spend the old refresh token while the pair is on its way.
 */
const REFRESH_LOCK_MS = 30_000;

/**
 * Takes the account's refresh lock in Redis, waiting while another instance holds it; returns its
 * release. If Redis does not answer, the refresh goes ahead unlocked (the re-read after a refused
 * refresh still catches most races).
 */
async function refreshLock(shared: SharedStores, accountId: number): Promise<() => Promise<void>> {
  const key = `${shared.keyPrefix}refresh:${accountId}`;
  const deadline = performance.now() + REFRESH_LOCK_MS;
  try {
    while (performance.now() < deadline) {
      const token = await takeLock(shared.redis, key, REFRESH_LOCK_MS, shared.timeoutMs);
      if (token) return () => releaseLock(shared.redis, key, token, shared.timeoutMs);
      await Bun.sleep(50);
    }
  } catch {
    // Redis away
  }
  return async () => {};
}

/** How long a rotated token pair is offered to a database that does not answer before it is lost. */
const KEEP_ROTATED_PAIR_MS = 10_000;

/**
 * Stores the pair Twitch just rotated. The old refresh token is spent, so losing the new pair means
 * the streamer must log in again: a database that does not answer for a moment is asked again.
 */
async function keepRotatedPair(ctx: TokenStore, accountId: number, fresh: ProviderTokenSet): Promise<void> {
  const deadline = performance.now() + KEEP_ROTATED_PAIR_MS;
  for (;;) {
    try {
      await saveProviderTokens(ctx, accountId, fresh);
      return;
    } catch (error) {
      if (!(error instanceof StoreUnavailableError) || performance.now() > deadline) throw error;
      await Bun.sleep(250);
    }
  }
}

async function refreshStored(
  ctx: TokenContext,
  idp: IdentityProviderClient,
  account: Account,
  stored: ProviderTokens,
): Promise<string> {
  try {
    const fresh = await idp.refresh(stored.refreshToken);
    await keepRotatedPair(ctx, account.id, fresh);
    return fresh.accessToken;
  } catch (error) {
    if (error instanceof IdentityProviderError && error.kind === "rejected") {
      // Another process (an instance sharing the database) may have spent the same refresh token
      // first and stored the rotated pair: then the grant is fine, and its new token is ours too. Its
      // write may still be on its way (a round trip to PostgreSQL): look again for a moment.
      // (On SQLite no other process can be half-way: sharing the file needs Redis, which holds the lock.)
      const deadline = performance.now() + (ctx.db.dialect === "postgres" ? ROTATED_PAIR_WAIT_MS : 0);
      for (;;) {
        const now = await loadProviderTokens(ctx.db, ctx.secrets, account.id);
        if (now && now.refreshToken !== stored.refreshToken) return now.accessToken;
        if (performance.now() > deadline) break;
        await Bun.sleep(100);
      }
      await markNeedsReauth(ctx, account);
      throw new ReauthRequiredError(account.login);
    }
    throw error;
  }
}

/**
 * Runs a Helix call with the account's user token; on a 401 refreshes once and retries (Twitch's
 * advice: refresh reactively, tokens can die early).
 */
export async function withUserToken<T>(
  ctx: TokenContext,
  account: Account,
  call: (accessToken: string) => Promise<T>,
): Promise<T> {
  if (account.needsReauth) throw new ReauthRequiredError(account.login);
  const stored = await loadProviderTokens(ctx.db, ctx.secrets, account.id);
  if (!stored) throw new ReauthRequiredError(account.login);
  try {
    return await call(stored.accessToken);
  } catch (error) {
    if (!(error instanceof HelixError) || error.status !== 401) throw error;
    const fresh = await refreshUserToken(ctx, account, stored.accessToken);
    return call(fresh);
  }
}

export interface UpkeepReport {
  checked: number;
  refreshed: number;
  ended: number;
  unreachable: number;
}

/**
 * Validates every stored token (the platform requires it at start and hourly); a token that no longer
 * validates is refreshed, and one that cannot be refreshed ends the account's sessions.
 */
export async function validateStoredTokens(ctx: TokenContext): Promise<UpkeepReport> {
  const report: UpkeepReport = { checked: 0, refreshed: 0, ended: 0, unreachable: 0 };
  const idp = ctx.identityProvider;
  if (!idp) return report;
  for (const accountId of await listAccountsWithTokens(ctx.db)) {
    const account = await ctx.accounts.account(accountId);
    if (!account || account.needsReauth) continue;
    const stored = await loadProviderTokens(ctx.db, ctx.secrets, accountId);
    if (!stored) continue;
    report.checked += 1;
    try {
      const result = await idp.validate(stored.accessToken);
      if (result) {
        await markTokensValidated(ctx.db, accountId, ctx.clock.now());
        continue;
      }
      await refreshUserToken(ctx, account);
      report.refreshed += 1;
    } catch (error) {
      if (error instanceof ReauthRequiredError) report.ended += 1;
      else {
        report.unreachable += 1;
        ctx.log.warn("could not validate a stored Twitch token; will try again", {
          login: account.login,
          error,
        });
      }
    }
  }
  return report;
}

const HOUR_MS = 60 * 60_000;

/**
 * Validates at start and then hourly until the context closes. It runs without Twitch configured too
 * (finding nothing to do) so that a setup finished in the browser is kept up with no restart.
 */
export function startTokenUpkeep(ctx: TokenContext & Pick<CoreContext, "onClose">): void {
  const run = () => {
    validateStoredTokens(ctx)
      .then((report) => {
        if (report.checked > 0) ctx.log.info("validated stored Twitch tokens", { ...report });
      })
      .catch((error) => ctx.log.warn("token validation failed", { error }));
  };
  run();
  const timer = setInterval(run, HOUR_MS);
  ctx.onClose(() => clearInterval(timer));
}
