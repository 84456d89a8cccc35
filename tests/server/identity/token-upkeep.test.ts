import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { findAccountByLogin } from "../../../db/accounts.ts";
import type { DataStore } from "../../../db/data-store.ts";
import { loadProviderTokens } from "../../../db/oauth-tokens.ts";
import { countSessionsOf } from "../../../db/sessions.ts";
import { StoreUnavailableError } from "../../../db/store-unavailable.ts";
import { createLogger } from "../../../server/core/log.ts";
import {
  ReauthRequiredError,
  refreshUserToken,
  validateStoredTokens,
  withUserToken,
} from "../../../server/identity/provider-tokens.ts";
import { openContext } from "../../../server/runtime.ts";
import { type IdentityHarness, startIdentityHarness } from "../../helpers/twitch.ts";

let h: IdentityHarness;
beforeEach(async () => {
  h = await startIdentityHarness();
});
afterEach(async () => {
  await h.stop();
});

async function loggedIn() {
  const { cookie } = await h.login("cuebotdemo");
  const account = (await findAccountByLogin(h.ctx.db, "cuebotdemo"))!;
  return {
    cookie,
    account,
    tokens: async () => (await loadProviderTokens(h.ctx.db, h.ctx.secrets, account.id))!,
  };
}

describe("stored provider tokens are validated at start and hourly", () => {
  test("a valid token is only marked validated", async () => {
    const { tokens } = await loggedIn();
    const before = await tokens();
    h.clock.advance(60_000);
    expect(await validateStoredTokens(h.ctx)).toEqual({ checked: 1, refreshed: 0, ended: 0, unreachable: 0 });
    expect((await tokens()).accessToken).toBe(before.accessToken);
    expect((await tokens()).validatedAt).toBe(h.clock.now());
  });

  test("a token that no longer validates is refreshed and the rotated refresh token is kept", async () => {
    const { tokens } = await loggedIn();
    const before = await tokens();
    h.sim.expireAccessToken(before.accessToken);
    expect((await validateStoredTokens(h.ctx)).refreshed).toBe(1);
    const after = await tokens();
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    // The stored refresh token is the live one: refreshing again works.
    h.sim.expireAccessToken(after.accessToken);
    expect((await validateStoredTokens(h.ctx)).refreshed).toBe(1);
  });

  test("a grant the streamer revoked marks the account for a new login and ends its sessions", async () => {
    const { cookie, account } = await loggedIn();
    h.sim.disconnectUser(account.twitchUserId);
    expect((await validateStoredTokens(h.ctx)).ended).toBe(1);
    expect((await findAccountByLogin(h.ctx.db, "cuebotdemo"))!.needsReauth).toBe(true);
    expect(await countSessionsOf(h.ctx.db, account.id)).toBe(0);
    expect((await h.request("/api/system/validate", { headers: { cookie } })).status).toBe(401);
    // Logging in again restores the account.
    await h.login("cuebotdemo");
    expect((await findAccountByLogin(h.ctx.db, "cuebotdemo"))!.needsReauth).toBe(false);
  });

  test("a provider outage changes nothing and is retried later", async () => {
    const { tokens } = await loggedIn();
    const before = await tokens();
    h.sim.knobs.down = true;
    expect(await validateStoredTokens(h.ctx)).toEqual({ checked: 1, refreshed: 0, ended: 0, unreachable: 1 });
    expect((await tokens()).accessToken).toBe(before.accessToken);
    expect((await findAccountByLogin(h.ctx.db, "cuebotdemo"))!.needsReauth).toBe(false);
  });
});

describe("two instances on one database refresh at once", () => {
  test("the one whose refresh token was already spent by the other takes the new tokens, and nobody is logged out", async () => {
    const { account, tokens } = await loggedIn();
    const before = await tokens();
    const other = await openContext(h.ctx.config, {
      log: createLogger({ level: "error", format: "json", write: () => {} }),
      clock: h.clock,
    });
    try {
      // Both read the same stored refresh token before either has stored the rotated one (the other
      // instance's connection is opened first, or on PostgreSQL this one could be done before it starts).
      await loadProviderTokens(other.db, other.secrets, account.id);
      const [mine, theirs] = await Promise.all([
        refreshUserToken(h.ctx, account),
        refreshUserToken(other, account),
      ]);
      expect(mine).toBe(theirs);
      expect((await tokens()).accessToken).toBe(mine);
      expect((await tokens()).refreshToken).not.toBe(before.refreshToken);
      expect((await findAccountByLogin(h.ctx.db, "cuebotdemo"))!.needsReauth).toBe(false);
    } finally {
      await other.close();
    }
  });
});

describe("Helix calls refresh once on a 401", () => {
  test("an expired access token is refreshed and the call succeeds", async () => {
    const { account, tokens } = await loggedIn();
    h.sim.expireAccessToken((await tokens()).accessToken);
    const users = await withUserToken(h.ctx, account, (token) => h.ctx.helix!.getUsers(token));
    expect(users[0]?.login).toBe("cuebotdemo");
  });

  test("a database that does not answer for a moment when the rotated pair comes back: it is stored once it answers", async () => {
    const { account, tokens } = await loggedIn();
    const before = await tokens();
    h.sim.expireAccessToken(before.accessToken);
    // The database refuses the next two writes, as during a short outage.
    const db = h.ctx.db;
    let refusals = 2;
    const outage = {
      ...h.ctx,
      db: {
        ...db,
        dialect: db.dialect,
        all: (build) => db.all(build),
        first: (build) => db.first(build),
        transaction: (fn) => db.transaction(fn),
        run: (build) =>
          refusals-- > 0
            ? Promise.reject(new StoreUnavailableError("postgres", new Error("Connection closed")))
            : db.run(build),
      } satisfies DataStore,
    };
    const users = await withUserToken(outage, account, (token) => h.ctx.helix!.getUsers(token));
    expect(users[0]?.login).toBe("cuebotdemo");
    const after = await tokens();
    expect(after.refreshToken).not.toBe(before.refreshToken);
    // The stored pair is the live one: the next refresh works instead of asking for a new login.
    h.sim.expireAccessToken(after.accessToken);
    expect((await withUserToken(h.ctx, account, (token) => h.ctx.helix!.getUsers(token)))[0]?.login).toBe(
      "cuebotdemo",
    );
  });

  test("concurrent calls share one refresh (a rotating refresh token is never spent twice)", async () => {
    const { account, tokens } = await loggedIn();
    h.sim.expireAccessToken((await tokens()).accessToken);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => withUserToken(h.ctx, account, (token) => h.ctx.helix!.getUsers(token))),
    );
    expect(results.every((users) => users[0]?.login === "cuebotdemo")).toBe(true);
    expect(h.sim.calls.get("POST /oauth2/token")).toBe(2); // the login's code exchange + one refresh
    expect((await findAccountByLogin(h.ctx.db, "cuebotdemo"))!.needsReauth).toBe(false);
  });

  test("a refresh the provider refuses asks the streamer to log in again", async () => {
    const { account, tokens } = await loggedIn();
    h.sim.expireAccessToken((await tokens()).accessToken);
    h.sim.knobs.failRefresh = true;
    await expect(
      withUserToken(h.ctx, account, (token) => h.ctx.helix!.getUsers(token)),
    ).rejects.toBeInstanceOf(ReauthRequiredError);
    expect((await findAccountByLogin(h.ctx.db, "cuebotdemo"))!.needsReauth).toBe(true);
  });
});
