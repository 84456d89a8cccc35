import {
  type Account,
  findAccountByLogin,
  findAccountByTwitchId,
  normalizeLogin,
  releaseLogin,
  updateAccountProfile,
} from "../../db/accounts.ts";
import { recordAudit } from "../../db/audit.ts";
import { isUniqueViolation } from "../../db/data-store.ts";
import type { Role } from "../../db/schema-enums.ts";
import { provisionAccount, type Store } from "../core/accounts.ts";
import { createSession, type IssuedSession } from "../core/sessions.ts";
import type { HelixUser } from "../twitch/helix-client.ts";
import type { ProviderTokenSet } from "./idp-client.ts";
import { saveLoginTokens } from "./provider-tokens.ts";

export interface CompletedLogin {
  account: Account;
  session: IssuedSession;
  created: boolean;
}

/** The browser's IANA zone if it is one this runtime knows, else UTC. */
export function normalizeTimezone(zone: string | undefined | null): string {
  if (!zone) return "UTC";
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return "UTC";
  }
}

/** What a login reads besides the stores: the install's owner (CONTRACT §4), read live. */
export type LoginStore = Store & { readonly owner: string | null };

/** The role a first login creates the account with: Partner for the install's owner, else Default. */
export function firstRoleOf(owner: string | null, login: string): Role {
  return owner !== null && normalizeLogin(login) === owner.toLowerCase() ? "Partner" : "Default";
}

/**
 * Everything a successful login writes, in one transaction: the account (created at first login with
 * its key and overlay token; later logins refresh the profile and keep key and role), the provider
 * tokens, and a fresh session. Nothing is half-written if any step fails.
 */
export async function completeLogin(
  ctx: LoginStore,
  user: HelixUser,
  tokens: ProviderTokenSet,
  timezone: string,
  userAgent: string,
): Promise<CompletedLogin> {
  const now = ctx.clock.now();
  const profile = {
    twitchUserId: user.id,
    login: user.login,
    displayName: user.display_name || user.login,
    profileImageUrl: user.profile_image_url ?? "",
    timezone,
  };
  const write = () =>
    ctx.db.transaction(async (tx) => {
      const store = { ...ctx, db: tx };
      // Logins are reusable after a rename: a stale account still holding this login gives it up.
      const holder = await findAccountByLogin(tx, user.login);
      if (holder && holder.twitchUserId !== user.id) {
        await releaseLogin(tx, holder.id, `${normalizeLogin(user.login)}~${holder.twitchUserId}`, now);
      }
      const existing = await findAccountByTwitchId(tx, user.id);
      let account: Account;
      let created = false;
      if (existing) {
        account = await updateAccountProfile(tx, existing.id, profile, now);
        if (existing.login !== account.login) {
          await recordAudit(
            tx,
            {
              accountId: account.id,
              login: account.login,
              actor: "system",
              action: "account.rename",
              detail: { from: existing.login },
            },
            now,
          );
        }
      } else {
        account = (await provisionAccount(store, profile, firstRoleOf(ctx.owner, user.login))).account;
        created = true;
      }
      // A narrower grant than the stored one (a plain login after a re-consent) keeps the stored one.
      await saveLoginTokens(store, account.id, tokens, existing?.needsReauth ?? true);
      const session = await createSession({ db: tx, clock: ctx.clock }, account.id, userAgent);
      return { account, session, created };
    });
  // Two first logins of one streamer at once (two tabs): on PostgreSQL both may try to create the
  // account; the one that comes second finds it on a second try and logs in to it.
  let result: CompletedLogin;
  try {
    result = await write();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    result = await write();
  }
  ctx.accounts.invalidate();
  return result;
}
