import { afterEach, describe, expect, test } from "bun:test";
import { findAccountByLogin } from "../../../db/accounts.ts";
import { listAudit } from "../../../db/audit.ts";
import { type IdentityHarness, startIdentityHarness } from "../../helpers/twitch.ts";

let h: IdentityHarness;
afterEach(async () => {
  await h.stop();
});

const roleOf = async (login: string) => (await findAccountByLogin(h.ctx.db, login))?.role;

describe("the install's owner (CONTRACT §4)", () => {
  test("CUEBOT_OWNER's account is created as Partner, compared case-insensitively; anyone else's as Default", async () => {
    h = await startIdentityHarness({ env: { CUEBOT_OWNER: "@CuebotDemo" } });
    await h.login("cuebotdemo");
    await h.login("otherstreamer");
    expect(await roleOf("cuebotdemo")).toBe("Partner");
    expect(await roleOf("otherstreamer")).toBe("Default");
    const account = (await findAccountByLogin(h.ctx.db, "cuebotdemo"))!;
    const created = (await listAudit(h.ctx.db, account.id)).find(
      (entry) => entry.action === "account.create",
    );
    expect(created?.detail).toEqual({ role: "Partner" });
  });

  test("only at creation: a later login keeps the role an admin gave", async () => {
    h = await startIdentityHarness({ env: { CUEBOT_OWNER: "cuebotdemo" } });
    await h.login("cuebotdemo");
    await h.sql("UPDATE accounts SET role = 'Pro' WHERE login = 'cuebotdemo'");
    h.ctx.accounts.invalidate();
    await h.login("cuebotdemo");
    expect(await roleOf("cuebotdemo")).toBe("Pro");
  });

  test("the owner is read live: one named while the server runs counts for the next first login", async () => {
    h = await startIdentityHarness();
    await h.login("otherstreamer");
    h.ctx.twitchApp.setOwner("cuebotdemo");
    await h.login("cuebotdemo");
    expect(await roleOf("otherstreamer")).toBe("Default");
    expect(await roleOf("cuebotdemo")).toBe("Partner");
  });
});
