import type { Account } from "../../db/accounts.ts";
import { type Actor, type DeletionResult, deleteAccount, type EventStore } from "../core/accounts.ts";
import type { CoreContext } from "../core/context.ts";
import type { RateLimits } from "../limits/rate-limits.ts";
import type { FeatureConnections } from "./connections.ts";
import type { IdentityProviderClient } from "./idp-client.ts";

/** What a removal reads: the stores and the provider (to revoke), the limits, the live connections. */
export interface RemovalContext extends EventStore, Pick<CoreContext, "log">, FeatureConnections {
  readonly identityProvider: IdentityProviderClient | null;
  readonly limits: RateLimits;
}

/**
 * A running server deletes an account (the panel's "Delete account"): the data goes as the CLI's
 * `users delete` does it (accounts.ts), then the server lets go of what it holds of the account, its
 * rate-limit windows and its chat and alerts connections. (After the CLI's deletion a server sees the change and
 * lets go of the chat connection itself; the windows expire within a minute.)
 */
export async function removeAccount(
  ctx: RemovalContext,
  account: Account,
  actor: Actor,
): Promise<DeletionResult> {
  const result = await deleteAccount(ctx, account, actor);
  // Shared limits forget in Redis; if it is away, the windows expire by themselves within a minute.
  Promise.resolve(ctx.limits.accounts.forget(account.id)).catch((error: unknown) =>
    ctx.log.warn("could not drop a deleted account's rate-limit windows", { error }),
  );
  await Promise.all([ctx.chat.sync(account.id), ctx.alertsStatus.sync(account.id)]);
  return result;
}
