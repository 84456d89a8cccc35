import { afterEach, describe, expect, test } from "bun:test";
import { findAccountByLogin } from "../../../db/accounts.ts";
import { readChatSettings } from "../../../db/chat.ts";
import { BASE_SCOPES } from "../../../server/twitch/scopes.ts";
import { type BotHarness, consentAs, startBotHarness } from "../../helpers/bot.ts";
import { cookieHeader } from "../../helpers/twitch.ts";

/**
 * CONTRACT §6: a consent round trip that comes back signed in as another Twitch user than the
 * account that asked changes nothing, and the page says who approved and how to approve as the
 * right one. The streamer here is cuebotdemo; otherstreamer and modbob are other Twitch users.
 */
let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

const BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
const ALERT_SCOPES = ["bits:read", "channel:read:redemptions"];
const CHAT_SCOPE = "user:read:chat";

/** Everything a consent could change: accounts, grants, sessions, the features' switches, bots. */
async function stored() {
  return {
    accounts: await h.sql("SELECT id, login FROM accounts ORDER BY id"),
    grants: await h.sql(
      "SELECT account_id, access_token_encrypted, scopes FROM oauth_tokens ORDER BY account_id",
    ),
    sessions: await h.sql("SELECT account_id, id_hash FROM sessions ORDER BY id_hash"),
    chat: await h.sql("SELECT account_id, enabled, state, reason FROM chat_settings ORDER BY account_id"),
    alerts: await h.sql("SELECT account_id, enabled, state FROM alert_channels ORDER BY account_id"),
    bots: await h.sql("SELECT account_id, login FROM chat_bots ORDER BY account_id"),
  };
}

/** Who the browser's session cookie says is logged in. */
async function sessionLogin(cookie = h.cookie): Promise<string | undefined> {
  const res = await h.request("/api/system/validate", { headers: { cookie } });
  return ((await res.json()) as { user?: { login: string } }).user?.login;
}

const panelData = async <T>(path: string) => ((await (await h.panel(path)).json()) as { data: T }).data;
const turnOn = async (feature: "chat" | "alerts") =>
  expect(
    (await h.panel(`/api/dashboard/${feature}`, { method: "PUT", body: '{"enabled": true}' })).status,
  ).toBe(200);

interface FeatureData {
  enabled: boolean;
  state: string;
  consentUrl: string | null;
}

describe.each(["chat", "alerts"] as const)("the %s consent approved by another Twitch user", (kind) => {
  test("is a 403 page naming who approved and how to approve as the streamer; nothing changes", async () => {
    h = await startBotHarness();
    await turnOn(kind);
    const before = await stored();
    const feature = await panelData<FeatureData>(`/api/dashboard/${kind}`);
    expect(feature.consentUrl).toBe(`/auth/login?consent=${kind}`);

    const { done } = await consentAs(h, kind, "otherstreamer", { accept: BROWSER });
    expect(done.status).toBe(403);
    expect(done.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const page = await done.text();
    expect(page).toContain("OtherStreamer");
    expect(page).toContain("CuebotDemo");
    expect(page).toContain("twitch.tv");
    expect(page).toContain(`href="/auth/login?consent=${kind}"`);
    // No session for the other user; the login attempt's cookies are cleared.
    const cookies = done.headers.getSetCookie();
    expect(cookies.some((c) => c.startsWith("app_sess="))).toBe(false);
    expect(cookies.filter((c) => c.startsWith("cuebot_oauth_state=")).join()).toContain("Max-Age=0");

    expect(await sessionLogin()).toBe("cuebotdemo");
    expect(await findAccountByLogin(h.ctx.db, "otherstreamer")).toBeUndefined();
    expect(await stored()).toEqual(before);
    expect(await panelData<FeatureData>(`/api/dashboard/${kind}`)).toEqual(feature);
  });

  test("answers a caller that is not a browser with the contract's error body", async () => {
    h = await startBotHarness();
    const before = await stored();
    const { done } = await consentAs(h, kind, "otherstreamer");
    expect(done.status).toBe(403);
    const body = (await done.json()) as { status: number; error: { code: string; message: string } };
    expect(body.status).toBe(403);
    expect(body.error.code).toBe("wrong_twitch_user");
    expect(body.error.message).toContain("OtherStreamer");
    expect(body.error.message).toContain("CuebotDemo");
    expect(await stored()).toEqual(before);
  });

  test("then approving as the streamer works", async () => {
    h = await startBotHarness();
    await turnOn(kind);
    await consentAs(h, kind, "otherstreamer", { accept: BROWSER });
    const { done } = await consentAs(h, kind, "cuebotdemo", { accept: BROWSER });
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe(`/dashboard#/${kind}`);
    expect(await panelData<FeatureData>(`/api/dashboard/${kind}`)).toMatchObject({
      enabled: true,
      consentUrl: null,
    });
    const scopes = (await h.sql("SELECT scopes FROM oauth_tokens"))[0]!.scopes as string;
    expect(scopes).toContain(kind === "chat" ? CHAT_SCOPE : ALERT_SCOPES[0]!);
    expect(await h.sql("SELECT login FROM accounts")).toEqual([{ login: "cuebotdemo" }]);
  });
});

describe("the approving user's name on the page", () => {
  test("is escaped, and given with the login when the display name is not its spelling", async () => {
    h = await startBotHarness();
    const before = await stored();
    h.sim.findUser("otherstreamer")!.display_name = "<img src=x onerror=alert(1)>\u202E!addcom";
    const { done } = await consentAs(h, "chat", "otherstreamer", { accept: BROWSER });
    expect(done.status).toBe(403);
    const page = await done.text();
    expect(page).not.toContain("<img");
    expect(page).toContain("&#60;img src=x onerror=alert(1)&#62;\u202E!addcom (otherstreamer)");
    expect(await stored()).toEqual(before);
  });
});

describe("a consent approved by the linked bot account (still signed in to twitch.tv)", () => {
  test("changes nothing: the bot stays linked, no account is made for it, alerts still wait", async () => {
    h = await startBotHarness();
    h.sim.knobs.autoApproveAs = "modbob";
    const start = await h.request("/auth/chat-bot", { headers: { cookie: h.cookie } });
    const atProvider = await fetch(new URL(start.headers.get("location")!), { redirect: "manual" });
    const callback = new URL(atProvider.headers.get("location")!);
    const linked = await h.request(`${callback.pathname}${callback.search}`, {
      headers: { cookie: `${cookieHeader(start.headers.getSetCookie())}; ${h.cookie}` },
    });
    expect(linked.status).toBe(302);
    await turnOn("alerts");
    const before = await stored();

    const { done } = await consentAs(h, "alerts", "modbob", { accept: BROWSER });
    expect(done.status).toBe(403);
    expect(await done.text()).toContain("ModBob");
    expect(await sessionLogin()).toBe("cuebotdemo");
    expect(await stored()).toEqual(before);
  });
});

describe("a consent begun without a session (a tab left open after logging out)", () => {
  test("approved by someone with no account, it is their first login and switches nothing on for them", async () => {
    h = await startBotHarness();
    await turnOn("chat");
    const streamer = await panelData<FeatureData>("/api/dashboard/chat");
    const { done } = await consentAs(h, "chat", "otherstreamer", { session: false });
    expect(done.status).toBe(302);
    const other = (await findAccountByLogin(h.ctx.db, "otherstreamer"))!;
    expect((await readChatSettings(h.ctx.db, other.id))?.enabled ?? false).toBe(false);
    expect(await panelData<FeatureData>("/api/dashboard/chat")).toEqual(streamer);
  });
});

describe("what still works as before", () => {
  test("a plain login as another user, even from a browser logged in as the streamer, logs that user in", async () => {
    h = await startBotHarness();
    h.sim.knobs.autoApproveAs = "otherstreamer";
    const { callbackPath, stateCookies } = await h.startLogin();
    const done = await h.request(callbackPath, { headers: { cookie: `${stateCookies}; ${h.cookie}` } });
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/dashboard");
    const session = done.headers.getSetCookie().find((c) => c.startsWith("app_sess="))!;
    expect(await sessionLogin(session.split(";")[0]!)).toBe("otherstreamer");
    expect((await findAccountByLogin(h.ctx.db, "otherstreamer"))?.login).toBe("otherstreamer");
  });

  test("a login or bot link begun after an unfinished consent is bound to no account", async () => {
    h = await startBotHarness();
    const consent = await h.request("/auth/login?consent=chat", { headers: { cookie: h.cookie } });
    expect(consent.headers.getSetCookie().find((c) => c.startsWith("cuebot_login_asker="))).toContain(
      `=${h.account.id};`,
    );
    for (const path of ["/auth/login", "/auth/chat-bot"]) {
      const start = await h.request(path, { headers: { cookie: h.cookie } });
      expect(start.status).toBe(302);
      const asker = start.headers.getSetCookie().find((c) => c.startsWith("cuebot_login_asker="));
      expect(asker).toStartWith("cuebot_login_asker=; Path=/auth; Max-Age=0;");
    }
  });

  test("a consent without this browser's state is refused as before, whoever approved", async () => {
    h = await startBotHarness();
    const before = await stored();
    for (const as of ["otherstreamer", "cuebotdemo"]) {
      h.sim.knobs.autoApproveAs = as;
      const start = await h.request("/auth/login?consent=chat", { headers: { cookie: h.cookie } });
      const atProvider = await fetch(new URL(start.headers.get("location")!), { redirect: "manual" });
      const callback = new URL(atProvider.headers.get("location")!);
      const foreign = await h.request("/auth/login?consent=chat", { headers: { cookie: h.cookie } });
      for (const cookie of [h.cookie, `${cookieHeader(foreign.headers.getSetCookie())}; ${h.cookie}`]) {
        const done = await h.request(`${callback.pathname}${callback.search}`, {
          headers: { cookie, accept: BROWSER },
        });
        expect(done.status).toBe(400);
        expect(await done.text()).toContain("not valid");
      }
    }
    expect(await sessionLogin()).toBe("cuebotdemo");
    expect(await stored()).toEqual(before);
  });
});

describe("every consent asks for all the scopes the account's switched-on features need", () => {
  const EXTRA = "moderation:read";
  const EVERYTHING = [...BASE_SCOPES, EXTRA, CHAT_SCOPE, ...ALERT_SCOPES].sort();
  const withExtraScope = () =>
    startBotHarness({
      configure: (c) => {
        c.twitch.extraScopes = [EXTRA];
      },
    });

  test.each([
    ["chat", "alerts"],
    ["alerts", "chat"],
  ] as const)(
    "the %s consent asks for the scopes %s needs while it is on, and one approval serves both",
    async (kind, other) => {
      h = await withExtraScope();
      await turnOn(other);
      const { asked, done } = await consentAs(h, kind, "cuebotdemo");
      expect(asked.sort()).toEqual(EVERYTHING);
      expect(done.status).toBe(302);
      expect(await panelData<FeatureData>(`/api/dashboard/${other}`)).toMatchObject({ consentUrl: null });
      expect(await panelData<FeatureData>(`/api/dashboard/${kind}`)).toMatchObject({ consentUrl: null });
    },
  );

  test("a consent asks for what was granted before, and the extra scopes", async () => {
    h = await withExtraScope();
    await consentAs(h, "chat", "cuebotdemo");
    await turnOn("chat");
    await h.panel("/api/dashboard/chat", { method: "PUT", body: '{"enabled": false}' });
    const { asked } = await consentAs(h, "alerts", "cuebotdemo");
    expect(asked.sort()).toEqual(EVERYTHING);
  });
});

/** A consent begun with the session, then the callback after `between` ran (in another tab). */
async function consentAfter(as: string, between: () => Promise<unknown>): Promise<Response> {
  h.sim.knobs.autoApproveAs = as;
  const start = await h.request("/auth/login?consent=chat", { headers: { cookie: h.cookie } });
  await between();
  const atProvider = await fetch(new URL(start.headers.get("location")!), { redirect: "manual" });
  const callback = new URL(atProvider.headers.get("location")!);
  return h.request(`${callback.pathname}${callback.search}`, {
    headers: { cookie: `${cookieHeader(start.headers.getSetCookie())}; ${h.cookie}`, accept: BROWSER },
  });
}

describe("a consent whose asking account changed while Twitch asked (another tab)", () => {
  test("approved by another user who has a cuebot account: no session or switch for them", async () => {
    h = await startBotHarness();
    await h.login("otherstreamer");
    await turnOn("chat");
    const before = await stored();
    const { done } = await consentAs(h, "chat", "otherstreamer", { accept: BROWSER });
    expect(done.status).toBe(403);
    expect(done.headers.getSetCookie().some((c) => c.startsWith("app_sess="))).toBe(false);
    expect(await stored()).toEqual(before);
  });

  test("logged out meanwhile: the page does not claim the streamer is still logged in", async () => {
    h = await startBotHarness();
    const done = await consentAfter("otherstreamer", () =>
      h.request("/auth/logout", { method: "POST", headers: { cookie: h.cookie, origin: h.origin } }),
    );
    expect(done.status).toBe(403);
    const page = await done.text();
    expect(page).toContain("OtherStreamer");
    expect(page).not.toContain("still logged in");
    expect(page).toContain("logged out");
  });

  test("the asking account deleted meanwhile: nothing is switched on for whoever approved", async () => {
    h = await startBotHarness();
    await h.login("otherstreamer");
    const deleteStreamer = () =>
      h.panel("/api/dashboard/account", { method: "DELETE", body: '{"confirm": "cuebotdemo"}' });
    const before = { sessions: (await stored()).sessions.length };
    const done = await consentAfter("otherstreamer", deleteStreamer);
    expect(done.status).toBe(400);
    expect(done.headers.getSetCookie().some((c) => c.startsWith("app_sess="))).toBe(false);
    expect(await done.text()).toContain("no longer exists");
    expect((await stored()).chat).toEqual([]);
    expect((await stored()).sessions.length).toBe(before.sessions - 1);
  });
});
