import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { findAccountByLogin, listAccounts } from "../../../db/accounts.ts";
import { listAudit } from "../../../db/audit.ts";
import { loadProviderTokens } from "../../../db/oauth-tokens.ts";
import { countSessionsOf } from "../../../db/sessions.ts";
import { createTestContext } from "../../helpers/context.ts";
import { type IdentityHarness, startIdentityHarness } from "../../helpers/twitch.ts";

let h: IdentityHarness;
beforeEach(async () => {
  h = await startIdentityHarness();
});
afterEach(async () => {
  await h.stop();
});

const json = async (res: Response) => (await res.json()) as Record<string, unknown>;

/** The dashboard's Security tab, as the logged-in browser calls it. */
async function securityCall<K extends "apiKey" | "overlayToken">(
  cookie: string,
  action: string,
  field: K,
): Promise<string> {
  const res = await h.request(`/api/dashboard/security/${action}`, {
    method: "POST",
    headers: { cookie, origin: h.origin },
  });
  return ((await json(res)).data as Record<K, string>)[field];
}
const revealKey = (cookie: string) => securityCall(cookie, "reveal-key", "apiKey");
const rotateOverlayToken = (cookie: string) => securityCall(cookie, "rotate-overlay-token", "overlayToken");

describe("first login", () => {
  test("two first logins of one streamer at once (two tabs) both log in, to one account", async () => {
    const [one, two] = await Promise.all([h.login("cuebotdemo"), h.login("cuebotdemo")]);
    for (const { response } of [one, two]) expect(response.headers.get("location")).toBe("/dashboard");
    expect(await h.sql("SELECT CAST(count(*) AS INTEGER) AS n FROM accounts")).toEqual([{ n: 1 }]);
    expect(await h.sql("SELECT CAST(count(*) AS INTEGER) AS n FROM sessions")).toEqual([{ n: 2 }]);
  });

  test("creates the account with role Default, an API key and an overlay token, and opens a session", async () => {
    const { cookie, response } = await h.login("cuebotdemo", { tz: "Europe/Berlin" });
    expect(response.headers.get("location")).toBe("/dashboard");
    const account = (await findAccountByLogin(h.ctx.db, "cuebotdemo"))!;
    expect(account.role).toBe("Default");
    expect(account.twitchUserId).toBe("100001");
    expect(account.timezone).toBe("Europe/Berlin");

    const setCookie = response.headers.getSetCookie().find((c) => c.startsWith("app_sess="))!;
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Lax");
    expect(setCookie).toContain("Path=/");
    expect(setCookie).not.toContain("Secure");
    expect(setCookie).toContain(`Max-Age=${30 * 24 * 3600}`);

    const key = await h.request("/api/dashboard/security/reveal-key", {
      method: "POST",
      headers: { cookie, origin: h.origin },
    });
    expect(key.status).toBe(200);
    const apiKey = ((await json(key)).data as { apiKey: string }).apiKey;
    expect(apiKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect((await loadProviderTokens(h.ctx.db, h.ctx.secrets, account.id))?.scopes).toContain(
      "moderator:read:followers",
    );
  });

  test("requests exactly the ten scopes of the service document, plus the configured extras", async () => {
    const start = await h.request("/auth/login");
    const scopes = new URL(start.headers.get("location")!).searchParams.get("scope")!.split(" ");
    expect(scopes.sort()).toEqual(
      [
        "user:read:email",
        "moderator:read:followers",
        "clips:edit",
        "moderator:read:chatters",
        "user:write:chat",
        "chat:read",
        "chat:edit",
        "moderator:manage:banned_users",
        "channel:read:vips",
        "channel:read:subscriptions",
      ].sort(),
    );
    await h.stop();
    h = await startIdentityHarness({
      env: { CUEBOT_TWITCH_EXTRA_SCOPES: "moderator:manage:shoutouts moderation:read" },
    });
    const extra = await h.request("/auth/login");
    const withExtra = new URL(extra.headers.get("location")!).searchParams.get("scope")!.split(" ");
    expect(withExtra).toHaveLength(12);
    expect(withExtra).toContain("moderator:manage:shoutouts");
  });

  test("the session cookie is Secure when the public URL is https", async () => {
    await h.stop();
    h = await startIdentityHarness({ publicUrl: "https://cue.example.test" });
    const { response } = await h.login("cuebotdemo");
    expect(response.headers.getSetCookie().find((c) => c.startsWith("app_sess="))).toContain("Secure");
  });

  test("a login started on another host name of this server moves to the public URL first (cookies must match)", async () => {
    const res = await h.request("/auth/login?tz=Europe/Paris", { headers: { host: "127.0.0.1:8080" } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${h.origin}/auth/login?tz=Europe/Paris&moved=1`);
    expect(res.headers.getSetCookie()).toHaveLength(0);
    const same = await h.request("/auth/login", { headers: { host: "localhost:8080" } });
    expect(new URL(same.headers.get("location")!).origin).toBe(h.sim.authUrl);
  });

  test("the time zone defaults to UTC when the browser sent none or an unknown one", async () => {
    await h.login("viewer_anna", { tz: "Mars/Olympus" });
    expect((await findAccountByLogin(h.ctx.db, "viewer_anna"))!.timezone).toBe("UTC");
  });
});

describe("later logins", () => {
  test("keep key and role, refresh the profile, follow a renamed login, and issue a fresh session", async () => {
    const first = await h.login("cuebotdemo");
    const before = (await findAccountByLogin(h.ctx.db, "cuebotdemo"))!;
    const keyBefore = await revealKey(first.cookie);
    await h.sql(`UPDATE accounts SET role = 'VIP' WHERE id = ${before.id}`);
    h.ctx.accounts.invalidate();

    const user = h.sim.findUser("cuebotdemo")!;
    user.login = "cuebotrenamed";
    user.display_name = "CuebotRenamed";
    const second = await h.login("cuebotrenamed");
    expect(second.cookie).not.toBe(first.cookie);

    const after = (await findAccountByLogin(h.ctx.db, "cuebotrenamed"))!;
    expect(after.id).toBe(before.id);
    expect(after.role).toBe("VIP");
    expect(after.displayName).toBe("CuebotRenamed");
    expect(await findAccountByLogin(h.ctx.db, "cuebotdemo")).toBeUndefined();
    const keyAfter = await revealKey(second.cookie);
    expect(keyAfter).toBe(keyBefore);
  });
});

/** What a browser sends when it follows the provider back: the failures below are pages for it. */
const BROWSER = { accept: "text/html,application/xhtml+xml" };

describe("failed logins create nothing", () => {
  test("denied consent shows a friendly page and creates no account", async () => {
    h.sim.knobs.deny = true;
    const { callbackPath, stateCookies } = await h.startLogin();
    const res = await h.request(callbackPath, { headers: { cookie: stateCookies, ...BROWSER } });
    expect(res.status).toBe(403);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(await res.text()).toContain("Login cancelled");
    expect(await listAccounts(h.ctx.db)).toHaveLength(0);
  });

  test("a state that does not match this browser's cookie is a 400 page", async () => {
    h.sim.knobs.autoApproveAs = "cuebotdemo";
    const { callbackPath } = await h.startLogin();
    const other = await h.startLogin();
    const res = await h.request(callbackPath, { headers: { cookie: other.stateCookies, ...BROWSER } });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("not valid");
    expect(await listAccounts(h.ctx.db)).toHaveLength(0);
  });

  test("an error callback without this browser's state is refused, and the provider's text is never echoed", async () => {
    const crafted = "Your cuebot account was suspended. Call +1-555-0100";
    const res = await h.request(`/auth/callback?error=x&error_description=${encodeURIComponent(crafted)}`, {
      headers: BROWSER,
    });
    expect(res.status).toBe(400);
    expect(await res.text()).not.toContain("suspended");
    h.sim.knobs.autoApproveAs = "cuebotdemo";
    const { stateCookies } = await h.startLogin();
    const state = new URLSearchParams(stateCookies.replaceAll("; ", "&")).get("cuebot_oauth_state")!;
    const withState = await h.request(
      `/auth/callback?state=${state}&error=x&error_description=${encodeURIComponent(crafted)}`,
      {
        headers: { cookie: stateCookies, ...BROWSER },
      },
    );
    expect(withState.status).toBe(400);
    expect(await withState.text()).not.toContain("suspended");
  });

  test("a missing state is a 400 page", async () => {
    h.sim.knobs.autoApproveAs = "cuebotdemo";
    const { callbackPath, stateCookies } = await h.startLogin();
    const url = new URL(`http://x${callbackPath}`);
    url.searchParams.delete("state");
    const res = await h.request(`${url.pathname}${url.search}`, {
      headers: { cookie: stateCookies, ...BROWSER },
    });
    expect(res.status).toBe(400);
    expect(await listAccounts(h.ctx.db)).toHaveLength(0);
  });

  test("a replayed code is refused", async () => {
    h.sim.knobs.autoApproveAs = "cuebotdemo";
    const { callbackPath, stateCookies } = await h.startLogin();
    expect((await h.request(callbackPath, { headers: { cookie: stateCookies, ...BROWSER } })).status).toBe(
      302,
    );
    const replay = await h.request(callbackPath, { headers: { cookie: stateCookies, ...BROWSER } });
    expect(replay.status).toBe(400);
    expect(await replay.text()).toContain("already used");
  });

  test("a provider outage is a 502 page and nothing is half-written", async () => {
    h.sim.knobs.autoApproveAs = "cuebotdemo";
    const { callbackPath, stateCookies } = await h.startLogin();
    h.sim.knobs.down = true;
    const res = await h.request(callbackPath, { headers: { cookie: stateCookies, ...BROWSER } });
    expect(res.status).toBe(502);
    expect(await res.text()).toContain("Twitch is not answering");
    expect(await listAccounts(h.ctx.db)).toHaveLength(0);
  });

  test("without provider credentials /auth/login answers 503 login_not_configured with guidance", async () => {
    const bare = await createTestContext();
    try {
      const res = await bare.request("/auth/login");
      expect(res.status).toBe(503);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("login_not_configured");
      expect(body.error.message).toContain("--twitch-client-id");
      const page = await bare.request("/auth/login", { headers: { accept: "text/html" } });
      expect(page.status).toBe(503);
      expect(await page.text()).toContain("CUEBOT_TWITCH_CLIENT_ID");
    } finally {
      await bare.cleanup();
    }
  });
});

describe("GET /api/system/validate", () => {
  test("answers the session validation result at top level, never the API key", async () => {
    const { cookie } = await h.login("cuebotdemo", { tz: "America/New_York" });
    const res = await h.request("/api/system/validate", { headers: { cookie } });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toEqual({
      status: 200,
      valid: true,
      tokenExpiresAt: new Date(h.clock.now() + 30 * 24 * 3600_000).toISOString(),
      user: {
        id: "100001",
        login: "cuebotdemo",
        display_name: "CuebotDemo",
        profile_image_url: h.sim.findUser("cuebotdemo")!.profile_image_url,
        timezone: "America/New_York",
      },
    });
    const apiKey = await revealKey(cookie);
    expect(JSON.stringify(body)).not.toContain(apiKey);
  });

  test("no session → 401 not_authenticated", async () => {
    const res = await h.request("/api/system/validate");
    expect(res.status).toBe(401);
    expect(((await json(res)).error as { code: string }).code).toBe("not_authenticated");
  });

  test("a tampered session → 401 and the cookie is cleared", async () => {
    const { cookie } = await h.login("cuebotdemo");
    const tampered = `${cookie.slice(0, -3)}${cookie.endsWith("AAA") ? "BBB" : "AAA"}`;
    const res = await h.request("/api/system/validate", { headers: { cookie: tampered } });
    expect(res.status).toBe(401);
    expect(
      res.headers.getSetCookie().some((c) => c.startsWith("app_sess=;") && c.includes("Max-Age=0")),
    ).toBe(true);
  });

  test("a garbage or foreign session value → 401", async () => {
    for (const value of ["x", "a".repeat(43), "../../etc/passwd", "%00%ff"]) {
      const res = await h.request("/api/system/validate", { headers: { cookie: `app_sess=${value}` } });
      expect(res.status).toBe(401);
    }
  });

  test("an expired session → 401; a session used in its last half is renewed", async () => {
    const { cookie } = await h.login("cuebotdemo");
    h.clock.advance(16 * 24 * 3600_000);
    const renewed = await h.request("/api/system/validate", { headers: { cookie } });
    expect(renewed.status).toBe(200);
    expect(renewed.headers.getSetCookie().some((c) => c.startsWith("app_sess="))).toBe(true);
    expect((await json(renewed)).tokenExpiresAt).toBe(
      new Date(h.clock.now() + 30 * 24 * 3600_000).toISOString(),
    );

    h.clock.advance(31 * 24 * 3600_000);
    const expired = await h.request("/api/system/validate", { headers: { cookie } });
    expect(expired.status).toBe(401);
  });

  test("an overlay token → 403 overlay_token_forbidden, as query or header, with or without a session", async () => {
    const { cookie } = await h.login("cuebotdemo");
    const token = await rotateOverlayToken(cookie);
    const cases: [string, RequestInit][] = [
      [`/api/system/validate?token=${token}`, {}],
      ["/api/system/validate", { headers: { "x-overlay-token": token } }],
      [`/api/system/validate?token=${token}`, { headers: { cookie } }],
      ["/api/system/validate", { headers: { "x-overlay-token": token, cookie } }],
    ];
    for (const [path, init] of cases) {
      const res = await h.request(path, init);
      expect(res.status).toBe(403);
      expect(((await json(res)).error as { code: string }).code).toBe("overlay_token_forbidden");
    }
  });

  test("an overlay token on another panel route → 401", async () => {
    const { cookie } = await h.login("cuebotdemo");
    const token = await rotateOverlayToken(cookie);
    const res = await h.request(`/api/dashboard/profile?token=${token}`);
    expect(res.status).toBe(401);
  });
});

describe("state-changing panel requests need our Origin", () => {
  test("missing or foreign Origin → 403 bad_origin before the handler runs", async () => {
    const { cookie } = await h.login("cuebotdemo");
    const attempts: Record<string, string>[] = [
      { cookie },
      { cookie, origin: "https://evil.example" },
      { cookie, origin: "http://localhost:9999" },
    ];
    for (const headers of attempts) {
      const res = await h.request("/api/dashboard/account", { method: "DELETE", headers });
      expect(res.status).toBe(403);
      expect(((await json(res)).error as { code: string }).code).toBe("bad_origin");
    }
    expect(await findAccountByLogin(h.ctx.db, "cuebotdemo")).toBeDefined();
    const logout = await h.request("/auth/logout", { method: "POST", headers: { cookie } });
    expect(logout.status).toBe(403);
    expect((await h.request("/api/system/validate", { headers: { cookie } })).status).toBe(200);
  });

  test("logout with our Origin ends the session", async () => {
    const { cookie } = await h.login("cuebotdemo");
    const res = await h.request("/auth/logout", { method: "POST", headers: { cookie, origin: h.origin } });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie().some((c) => c.startsWith("app_sess=;"))).toBe(true);
    expect((await h.request("/api/system/validate", { headers: { cookie } })).status).toBe(401);
  });
});

describe("security endpoints", () => {
  test("reveal is audit-logged; regenerate issues a new key; rotate issues a new overlay token", async () => {
    const { cookie } = await h.login("cuebotdemo");
    const post = (path: string) => h.request(path, { method: "POST", headers: { cookie, origin: h.origin } });
    const first = ((await json(await post("/api/dashboard/security/reveal-key"))).data as { apiKey: string })
      .apiKey;
    const regenerated = (
      (await json(await post("/api/dashboard/security/regenerate-key"))).data as { apiKey: string }
    ).apiKey;
    expect(regenerated).not.toBe(first);
    const again = ((await json(await post("/api/dashboard/security/reveal-key"))).data as { apiKey: string })
      .apiKey;
    expect(again).toBe(regenerated);
    expect(await h.ctx.accounts.byCredential("api-key", first)).toBeNull();
    expect((await h.ctx.accounts.byCredential("api-key", regenerated))?.login).toBe("cuebotdemo");

    const o1 = (
      (await json(await post("/api/dashboard/security/rotate-overlay-token"))).data as {
        overlayToken: string;
      }
    ).overlayToken;
    const o2 = (
      (await json(await post("/api/dashboard/security/rotate-overlay-token"))).data as {
        overlayToken: string;
      }
    ).overlayToken;
    expect(o1).not.toBe(o2);
    expect(await h.ctx.accounts.byCredential("overlay-token", o1)).toBeNull();

    const account = (await findAccountByLogin(h.ctx.db, "cuebotdemo"))!;
    const actions = (await listAudit(h.ctx.db, account.id)).map((a) => `${a.actor}:${a.action}`);
    expect(actions).toEqual([
      "system:account.create",
      "panel:key.reveal",
      "panel:key.rotate",
      "panel:key.reveal",
      "panel:overlay.rotate",
      "panel:overlay.rotate",
    ]);
  });

  test("export is a JSON attachment with the account's data and no secrets", async () => {
    const { cookie } = await h.login("cuebotdemo");
    const apiKey = await revealKey(cookie);
    const res = await h.request("/api/dashboard/export", { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="cuebot-export-cuebotdemo-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const text = await res.text();
    const doc = JSON.parse(text) as { profile: { login: string }; role: string; auditLog: unknown[] };
    expect(doc.profile.login).toBe("cuebotdemo");
    expect(doc.role).toBe("Default");
    expect(doc.auditLog.length).toBeGreaterThan(0);
    expect(text).not.toContain(apiKey);
    expect(text).not.toContain(cookie.split("=")[1]!);
  });

  test("deleting the account revokes the provider token, removes every row and ends all sessions", async () => {
    const a = await h.login("cuebotdemo");
    const b = await h.login("cuebotdemo");
    const account = (await findAccountByLogin(h.ctx.db, "cuebotdemo"))!;
    const providerToken = (await loadProviderTokens(h.ctx.db, h.ctx.secrets, account.id))!.accessToken;
    const res = await h.request("/api/dashboard/account", {
      method: "DELETE",
      headers: { cookie: a.cookie, origin: h.origin },
    });
    expect(res.status).toBe(200);
    expect((await json(res)).data).toEqual({ deleted: true, provider_token_revoked: true });
    expect(h.sim.wasRevoked(providerToken)).toBe(true);
    expect(await findAccountByLogin(h.ctx.db, "cuebotdemo")).toBeUndefined();
    expect(await countSessionsOf(h.ctx.db, account.id)).toBe(0);
    for (const table of ["api_keys", "overlay_tokens", "sessions", "oauth_tokens"]) {
      expect((await h.sql(`SELECT CAST(count(*) AS INTEGER) AS n FROM ${table}`))[0]).toEqual({ n: 0 });
    }
    expect((await h.request("/api/system/validate", { headers: { cookie: b.cookie } })).status).toBe(401);
  });
});

describe("secrets at rest and in logs", () => {
  test("the plaintext API key and session token never appear in the database files or the log", async () => {
    const { cookie } = await h.login("cuebotdemo");
    const apiKey = await revealKey(cookie);
    await h.request(`/api/system/validate?apiKey=${apiKey}`, { headers: { cookie } });
    const sessionToken = cookie.split("=")[1]!;
    const account = (await findAccountByLogin(h.ctx.db, "cuebotdemo"))!;
    const providerToken = (await loadProviderTokens(h.ctx.db, h.ctx.secrets, account.id))!.accessToken;
    const stored: string[] = [];
    const database = h.ctx.database;
    if (database) {
      database.sqlite.exec("PRAGMA wal_checkpoint(PASSIVE)");
      const files = readdirSync(h.dataDir).filter((f) => f.startsWith("cuebot.db"));
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) stored.push(readFileSync(join(h.dataDir, file)).toString("latin1"));
    } else {
      // PostgreSQL: every row of every table, as text.
      for (const table of [
        "accounts",
        "api_keys",
        "overlay_tokens",
        "sessions",
        "oauth_tokens",
        "audit_log",
      ]) {
        for (const row of await h.sql(`SELECT x::text AS row FROM ${table} x`)) stored.push(String(row.row));
      }
      expect(stored.length).toBeGreaterThan(0);
    }
    for (const bytes of stored) {
      expect(bytes.includes(apiKey)).toBe(false);
      expect(bytes.includes(sessionToken)).toBe(false);
      expect(bytes.includes(providerToken)).toBe(false);
    }
    const logs = h.logs.join("\n");
    expect(logs.includes(apiKey)).toBe(false);
    expect(logs.includes(sessionToken)).toBe(false);
  });
});
