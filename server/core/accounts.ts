import {
  listCommandSettings,
  listEvents,
  readAlertsExport,
  readChatExport,
  readModerationExport,
  readOverlayState,
} from "../../db/account-data.ts";
import {
  type Account,
  type AccountProfile,
  deleteAccountRow,
  findAccountByLogin,
  insertAccount,
  setAccountRole,
  setPanelLimitOverride,
} from "../../db/accounts.ts";
import { readActionsExport } from "../../db/actions.ts";
import { deleteAuditOf, listAudit, recordAudit } from "../../db/audit.ts";
import { loadChatBot } from "../../db/chat.ts";
import { revealCredential, storeCredential } from "../../db/credentials.ts";
import { grantedScopes, loadProviderTokens } from "../../db/oauth-tokens.ts";
import { readObsExport } from "../../db/obs.ts";
import type { Role } from "../../db/schema-enums.ts";
import type { CoreContext } from "./context.ts";
import { randomToken } from "./secrets.ts";

/**
 * What account services need from the context: storage, secrets, time, and the lookup cache that
 * must forget a rotated key or a changed role at once.
 */
export type Store = Pick<CoreContext, "db" | "secrets" | "clock" | "accounts">;
/** Stores that also read or delete command events (which are written behind). */
export type EventStore = Store & Pick<CoreContext, "events">;
export type Actor = "cli" | "panel" | "system";

export class AccountNotFoundError extends Error {
  constructor(login: string) {
    super(`no account with login "${login}" (the streamer must log in once first)`);
  }
}

export async function requireAccount(store: Store, login: string): Promise<Account> {
  const account = await findAccountByLogin(store.db, login);
  if (!account) throw new AccountNotFoundError(login);
  return account;
}

export function newApiKey(): string {
  return crypto.randomUUID();
}

export function newOverlayToken(): string {
  return randomToken(24);
}

export interface ProvisionedAccount {
  account: Account;
  apiKey: string;
  overlayToken: string;
}

/**
 * First login: the account (with `role`: Default, or Partner for the install's owner), its API key
 * (UUID v4) and its overlay token, all or nothing.
 */
export async function provisionAccount(
  store: Store,
  profile: AccountProfile,
  role: Role = "Default",
): Promise<ProvisionedAccount> {
  const now = store.clock.now();
  const apiKey = newApiKey();
  const overlayToken = newOverlayToken();
  const account = await store.db.transaction(async (tx) => {
    const created = await insertAccount(tx, profile, now, role);
    await storeCredential(tx, store.secrets, "api-key", created.id, apiKey, now);
    await storeCredential(tx, store.secrets, "overlay-token", created.id, overlayToken, now);
    await recordAudit(
      tx,
      {
        accountId: created.id,
        login: created.login,
        actor: "system",
        action: "account.create",
        ...(role === "Default" ? {} : { detail: { role } }),
      },
      now,
    );
    return created;
  });
  return { account, apiKey, overlayToken };
}

export async function rotateApiKey(store: Store, account: Account, actor: Actor): Promise<string> {
  const now = store.clock.now();
  const apiKey = newApiKey();
  await store.db.transaction(async (tx) => {
    await storeCredential(tx, store.secrets, "api-key", account.id, apiKey, now);
    await recordAudit(tx, { accountId: account.id, login: account.login, actor, action: "key.rotate" }, now);
  });
  store.accounts.invalidate();
  return apiKey;
}

export async function revealApiKey(store: Store, account: Account, actor: Actor): Promise<string> {
  const apiKey = await revealCredential(store.db, store.secrets, "api-key", account.id);
  if (!apiKey) return rotateApiKey(store, account, actor);
  await recordAudit(
    store.db,
    {
      accountId: account.id,
      login: account.login,
      actor,
      action: actor === "cli" ? "key.show" : "key.reveal",
    },
    store.clock.now(),
  );
  return apiKey;
}

export async function rotateOverlayToken(store: Store, account: Account, actor: Actor): Promise<string> {
  const now = store.clock.now();
  const token = newOverlayToken();
  await store.db.transaction(async (tx) => {
    await storeCredential(tx, store.secrets, "overlay-token", account.id, token, now);
    await recordAudit(
      tx,
      { accountId: account.id, login: account.login, actor, action: "overlay.rotate" },
      now,
    );
  });
  store.accounts.invalidate();
  return token;
}

export async function assignRole(store: Store, account: Account, role: Role, actor: Actor): Promise<void> {
  const now = store.clock.now();
  await store.db.transaction(async (tx) => {
    await setAccountRole(tx, account.id, role, now);
    await recordAudit(
      tx,
      {
        accountId: account.id,
        login: account.login,
        actor,
        action: "role.set",
        detail: { from: account.role, to: role },
      },
      now,
    );
  });
  store.accounts.invalidate();
}

export async function overridePanelLimit(
  store: Store,
  account: Account,
  limit: number | null,
  actor: Actor,
): Promise<void> {
  const now = store.clock.now();
  await store.db.transaction(async (tx) => {
    await setPanelLimitOverride(tx, account.id, limit, now);
    await recordAudit(
      tx,
      {
        accountId: account.id,
        login: account.login,
        actor,
        action: "panel-limit.override",
        detail: { from: account.panelLimitOverride, to: limit },
      },
      now,
    );
  });
  store.accounts.invalidate();
}

/** The public view of an account (never keys or tokens). */
export function describeAccount(account: Account) {
  return {
    id: account.twitchUserId,
    login: account.login,
    displayName: account.displayName,
    role: account.role,
    createdAt: new Date(account.createdAt).toISOString(),
  };
}

export const EXPORT_FORMAT = "cuebot-account-export/1";

/** Everything cuebot holds about one account, for the owner or the admin; never keys or tokens. */
export async function exportAccount(store: EventStore, account: Account) {
  await store.events.flush();
  return {
    format: EXPORT_FORMAT,
    exportedAt: new Date(store.clock.now()).toISOString(),
    profile: {
      id: account.twitchUserId,
      login: account.login,
      displayName: account.displayName,
      profileImageUrl: account.profileImageUrl,
      timezone: account.timezone,
      createdAt: new Date(account.createdAt).toISOString(),
      updatedAt: new Date(account.updatedAt).toISOString(),
    },
    role: account.role,
    panelLimitOverride: account.panelLimitOverride,
    grantedScopes: await grantedScopes(store.db, account.id),
    settings: await listCommandSettings(store.db, account.id),
    overlayState: await readOverlayState(store.db, account.id),
    chat: await readChatExport(store.db, account.id),
    alerts: await readAlertsExport(store.db, account.id),
    moderation: await readModerationExport(store.db, account.id),
    obs: await readObsExport(store.db, account.id),
    actions: await readActionsExport(store.db, account.id),
    events: await listEvents(store.db, account.id),
    auditLog: await listAudit(store.db, account.id),
  };
}

export type AccountExport = Awaited<ReturnType<typeof exportAccount>>;

/**
 * Deletes the account and every row of it in one transaction; the audit log keeps one line saying it
 * happened (who, when), detached from the deleted account. Revoking the provider token is the
 * caller's step after this one (it is network I/O and must not hold a write transaction open).
 */
export async function deleteAccountData(store: EventStore, account: Account, actor: Actor): Promise<void> {
  const now = store.clock.now();
  // Buffered events of this account are written first, so the deletion takes them too.
  await store.events.flush();
  await store.db.transaction(async (tx) => {
    await deleteAuditOf(tx, account.id);
    await deleteAccountRow(tx, account.id);
    await recordAudit(tx, { accountId: null, login: account.login, actor, action: "account.delete" }, now);
  });
  store.accounts.invalidate();
}

/** What a deletion needs of the identity provider (server/identity/idp-client.ts is one). */
export interface TokenRevoker {
  revoke(token: string): Promise<void>;
}

export interface DeletionResult {
  /** Whether the provider confirmed the revocation of the account's token. */
  providerTokenRevoked: boolean;
}

/**
 * Deletes the account, then revokes its provider token (best effort: a provider outage must not block
 * deletion). A running server also lets go of what it holds of the account (account-removal.ts).
 */
export async function deleteAccount(
  ctx: EventStore & Pick<CoreContext, "log"> & { identityProvider: TokenRevoker | null },
  account: Account,
  actor: Actor,
): Promise<DeletionResult> {
  const tokens = await loadProviderTokens(ctx.db, ctx.secrets, account.id);
  // A linked chat bot's grant for this channel goes too (best effort, like the streamer's).
  const bot = await loadChatBot(ctx.db, ctx.secrets, account.id);
  // The data goes first: a deletion the database refuses (busy) revokes nothing, so the CLI can try
  // it again from the start; the grants are revoked once the deletion is committed.
  await deleteAccountData(ctx, account, actor);
  const revoke = async (token: string | undefined, what: string): Promise<boolean> => {
    if (!token || !ctx.identityProvider) return false;
    try {
      await ctx.identityProvider.revoke(token);
      return true;
    } catch (error) {
      ctx.log.warn(`could not revoke ${what} of a deleted account`, { login: account.login, error });
      return false;
    }
  };
  await revoke(bot?.accessToken, "the chat bot's token");
  const providerTokenRevoked = await revoke(tokens?.accessToken, "the provider token");
  return { providerTokenRevoked };
}
