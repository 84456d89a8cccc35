import { afterEach, describe, expect, test } from "bun:test";
import { findAccountByLogin } from "../../../db/accounts.ts";
import { storeProviderTokens } from "../../../db/oauth-tokens.ts";
import { deleteAccount } from "../../../server/core/accounts.ts";
import { createTestAccount, createTestContext, type TestContext } from "../../helpers/context.ts";

/**
 * Deleting an account: the data goes first, the Twitch grant is revoked once that is committed. The
 * CLI tries a command again from the start when the database is busy; had the grant been revoked
 * first, the second attempt would revoke it again (and report it not revoked), or a deletion that
 * never happened would have cost the streamer their grant.
 */
let h: TestContext;
afterEach(() => h.cleanup());

async function accountWithGrant() {
  h = await createTestContext();
  const { account } = await createTestAccount(h.ctx, { login: "alice" });
  const tokens = {
    accessToken: "access-1",
    refreshToken: "refresh-1",
    scopes: [],
    expiresAt: Date.now() + 3_600_000,
  };
  await storeProviderTokens(h.ctx.db, h.ctx.secrets, account.id, tokens, Date.now());
  return account;
}

describe("deleting an account and its grant", () => {
  test("the grant is revoked once the account's data is gone", async () => {
    const account = await accountWithGrant();
    const revoked: { token: string; accountStillThere: boolean }[] = [];
    const identityProvider = {
      revoke: async (token: string) => {
        revoked.push({
          token,
          accountStillThere: (await findAccountByLogin(h.ctx.db, "alice")) !== undefined,
        });
      },
    };
    const result = await deleteAccount({ ...h.ctx, identityProvider }, account, "cli");
    expect(result).toEqual({ providerTokenRevoked: true });
    expect(revoked).toEqual([{ token: "access-1", accountStillThere: false }]);
  });

  test("a deletion the database refuses revokes nothing", async () => {
    const account = await accountWithGrant();
    const revoked: string[] = [];
    const identityProvider = { revoke: async (token: string) => void revoked.push(token) };
    const busy = Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });
    const events = { record: () => {}, flush: () => Promise.reject(busy) };
    await expect(deleteAccount({ ...h.ctx, events, identityProvider }, account, "cli")).rejects.toBe(busy);
    expect(revoked).toEqual([]);
    expect(await findAccountByLogin(h.ctx.db, "alice")).toBeDefined();
  });
});
