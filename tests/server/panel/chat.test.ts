import { afterEach, describe, expect, test } from "bun:test";
import { grantedScopes } from "../../../db/oauth-tokens.ts";
import { startLive } from "../../../server/live-runtime.ts";
import { BASE_SCOPES } from "../../../server/twitch/scopes.ts";
import { type BotHarness, startBotHarness } from "../../helpers/bot.ts";
import { CHAT_SECOND_MS, waitFor } from "../../helpers/chat.ts";
import { cookieHeader } from "../../helpers/twitch.ts";

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

interface ChatData {
  enabled: boolean;
  state: string;
  since: string | null;
  reason: string | null;
  consentUrl: string | null;
  bot: {
    login: string;
    displayName: string;
    moderator: boolean | null;
    vip: boolean | null;
    note: string;
  } | null;
}

const chat = async () => ((await (await h.panel("/api/dashboard/chat")).json()) as { data: ChatData }).data;
const put = (body: string) => h.panel("/api/dashboard/chat", { method: "PUT", body });
const accountId = () => h.account.id;

/** The re-consent dance: /auth/login?consent=chat → the provider → the callback, with this browser's cookies. */
async function consent(): Promise<Response> {
  h.sim.knobs.autoApproveAs = "cuebotdemo";
  const start = await h.request("/auth/login?consent=chat", { headers: { cookie: h.cookie } });
  expect(start.status).toBe(302);
  const authorize = new URL(start.headers.get("location")!);
  const atProvider = await fetch(authorize, { redirect: "manual" });
  const callback = new URL(atProvider.headers.get("location")!);
  return h.request(`${callback.pathname}${callback.search}`, {
    headers: { cookie: `${cookieHeader(start.headers.getSetCookie())}; ${h.cookie}` },
  });
}

describe("GET/PUT /api/dashboard/chat", () => {
  test("off at first; turning it on without the chat scope asks for consent", async () => {
    h = await startBotHarness();
    expect(await chat()).toEqual({
      enabled: false,
      state: "off",
      since: null,
      reason: null,
      consentUrl: null,
      scope: "user:read:chat",
      bot: null,
      botLinkUrl: "/auth/chat-bot",
    } as ChatData);
    const on = await put('{"enabled": true}');
    expect(on.status).toBe(200);
    const data = ((await on.json()) as { data: ChatData }).data;
    expect(data).toMatchObject({
      enabled: true,
      state: "needs_consent",
      consentUrl: "/auth/login?consent=chat",
    });
    expect(data.reason).toContain("user:read:chat");
  });

  test("the re-consent login asks for every granted scope plus user:read:chat, shows Twitch's page, and turns chat on", async () => {
    h = await startBotHarness();
    h.ctx.config.twitch.eventsubUrl = h.sim.eventsubUrl;
    startLive(h.ctx, { secondMs: CHAT_SECOND_MS });
    const start = await h.request("/auth/login?consent=chat", { headers: { cookie: h.cookie } });
    const authorize = new URL(start.headers.get("location")!);
    expect(authorize.searchParams.get("force_verify")).toBe("true");
    expect(authorize.searchParams.get("scope")!.split(" ").sort()).toEqual(
      [...BASE_SCOPES, "user:read:chat"].sort(),
    );

    const done = await consent();
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/dashboard#/chat");
    expect(await grantedScopes(h.ctx.db, accountId())).toContain("user:read:chat");
    const connected = await waitFor(async () => (await h.ctx.chat.status(accountId())).state === "connected");
    expect(connected).toBe(true);
    const data = await chat();
    expect(data).toMatchObject({ enabled: true, state: "connected", reason: null, consentUrl: null });
    expect(Date.parse(data.since!)).toBeGreaterThan(0);
    // And off again: the connection closes.
    const off = ((await (await put('{"enabled": false}')).json()) as { data: ChatData }).data;
    expect(off).toMatchObject({ enabled: false, state: "off" });
    expect(await waitFor(() => h.sim.chat.sessions().every((s) => s.status === "closed"))).toBe(true);
  });

  test("denying the re-consent changes nothing: the old token and scopes stay", async () => {
    h = await startBotHarness();
    await put('{"enabled": true}');
    const before = await grantedScopes(h.ctx.db, accountId());
    h.sim.knobs.deny = true;
    const denied = await consent();
    expect(denied.status).toBe(403);
    expect(await grantedScopes(h.ctx.db, accountId())).toEqual(before);
    expect(await chat()).toMatchObject({ enabled: true, state: "needs_consent" });
  });

  test("bad bodies are refused with 400 naming the problem, and nothing changes", async () => {
    h = await startBotHarness();
    const bad: [string, string][] = [
      ['{"enabled": "yes"}', '"enabled" must be true or false'],
      ["{}", '"enabled" must be true or false'],
      ['{"enabled": true, "bot": "x"}', 'Unknown body field "bot"'],
      ["[true]", "must be a JSON object"],
      ["null", "must be a JSON object"],
    ];
    for (const [body, message] of bad) {
      const res = await put(body);
      expect(res.status).toBe(400);
      const error = ((await res.json()) as { error: { code: string; message: string } }).error;
      expect(error.code).toBe("bad_request");
      expect(error.message).toContain(message);
    }
    const notJson = await h.panel("/api/dashboard/chat", {
      method: "PUT",
      body: "enabled=true",
      headers: { "content-type": "text/plain" },
    });
    expect(notJson.status).toBe(400);
    expect((await chat()).enabled).toBe(false);
  });

  test("without a session: 401", async () => {
    h = await startBotHarness();
    expect((await h.request("/api/dashboard/chat")).status).toBe(401);
    const res = await h.request("/api/dashboard/chat", {
      method: "PUT",
      body: '{"enabled":true}',
      headers: { "content-type": "application/json", origin: h.origin },
    });
    expect(res.status).toBe(401);
  });
});

/** The bot-link dance: /auth/chat-bot → the provider (logging in as `as`) → the callback, with the session. */
async function linkBot(as: string): Promise<Response> {
  h.sim.knobs.autoApproveAs = as;
  const start = await h.request("/auth/chat-bot", { headers: { cookie: h.cookie } });
  expect(start.status).toBe(302);
  const authorize = new URL(start.headers.get("location")!);
  expect(authorize.searchParams.get("force_verify")).toBe("true");
  expect(authorize.searchParams.get("scope")!.split(" ").sort()).toEqual([
    "user:read:chat",
    "user:read:moderated_channels",
    "user:write:chat",
  ]);
  const atProvider = await fetch(authorize, { redirect: "manual" });
  const callback = new URL(atProvider.headers.get("location")!);
  // The provider sends a browser back: it asks for a page.
  return h.request(`${callback.pathname}${callback.search}`, {
    headers: { cookie: `${cookieHeader(start.headers.getSetCookie())}; ${h.cookie}`, accept: "text/html" },
  });
}

describe("a separate bot account", () => {
  test("linking stores the bot (never as a cuebot account or session) and shows whether it moderates", async () => {
    h = await startBotHarness();
    const done = await linkBot("modbob");
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/dashboard#/chat");
    expect(done.headers.getSetCookie().some((c) => c.startsWith("app_sess="))).toBe(false);
    expect(await h.sql("SELECT login FROM accounts")).toEqual([{ login: "cuebotdemo" }]);
    const data = await chat();
    expect(data.bot).toMatchObject({ login: "modbob", displayName: "ModBob", moderator: true });
    expect(data.bot!.note).toContain("moderator in your channel");
  });

  test("a bot that is neither moderator nor VIP: the note says what Twitch holds it to", async () => {
    h = await startBotHarness();
    await linkBot("subdave");
    const data = await chat();
    expect(data.bot).toMatchObject({ login: "subdave", moderator: false, vip: false });
    expect(data.bot!.note).toContain("20 messages per 30 seconds");
  });

  test("the streamer's own account is refused as a bot; without a session the link does not start", async () => {
    h = await startBotHarness();
    const own = await linkBot("cuebotdemo");
    expect(own.status).toBe(400);
    expect(await own.text()).toContain("That is your own account");
    expect((await chat()).bot).toBeNull();
    expect((await h.request("/auth/chat-bot")).status).toBe(401);
  });

  test("unlinking revokes the bot's grant and cuebot speaks as the streamer again; a second unlink is 404", async () => {
    h = await startBotHarness();
    await linkBot("modbob");
    const token = (await h.sql("SELECT access_token_encrypted AS t FROM chat_bots"))[0] as {
      t: string;
    };
    expect(token.t).toStartWith("v1.");
    const res = await h.panel("/api/dashboard/chat/bot", { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: ChatData }).data.bot).toBeNull();
    expect((await h.sql("SELECT CAST(count(*) AS INTEGER) AS n FROM chat_bots"))[0]).toEqual({ n: 0 });
    expect((await h.panel("/api/dashboard/chat/bot", { method: "DELETE" })).status).toBe(404);
  });
});
