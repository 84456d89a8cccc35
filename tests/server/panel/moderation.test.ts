import { afterEach, describe, expect, test } from "bun:test";
import { readChatSettings } from "../../../db/chat.ts";
import {
  addModerationLogEntry,
  readModerationChannel,
  readModerationRules,
  writeShieldUntil,
} from "../../../db/moderation.ts";
import { grantedScopes } from "../../../db/oauth-tokens.ts";
import {
  BASE_SCOPES,
  MODERATION_EXTRA_SCOPES,
  MODERATION_SCOPES,
  READ_CHAT_SCOPE,
} from "../../../server/twitch/scopes.ts";
import { DEFAULT_FILTER_SETTINGS, DEFAULT_SHIELD_SETTINGS } from "../../../server/vocabulary.ts";
import { type BotHarness, startBotHarness } from "../../helpers/bot.ts";
import { cookieHeader } from "../../helpers/twitch.ts";
import { call, expectDocumented, expectPanelSecurity, expectRefusal } from "./chat-bot-panel.ts";

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

interface ModerationData {
  enabled: boolean;
  state: string;
  since: string | null;
  reason: string | null;
  consentUrl: string | null;
  filters: typeof DEFAULT_FILTER_SETTINGS;
  shield: typeof DEFAULT_SHIELD_SETTINGS & { active: boolean; until: string | null };
}

interface LogItem {
  id: number;
  at: string;
  user: { id: string; login: string; name: string };
  filter: string | null;
  action: string;
  seconds: number | null;
  text: string | null;
  undone: boolean;
}

const MODERATION = "/api/dashboard/moderation";

/** A Helix call to the simulator as cuebotdemo, as a moderator of their own channel would make it. */
async function helixAsStreamer(method: string, path: string, body: unknown, scopes: string[]): Promise<void> {
  const token = h.sim.issueUserToken("cuebotdemo", scopes);
  const res = await fetch(`${h.sim.helixUrl}${path}`, {
    method,
    headers: {
      "client-id": h.sim.client.id,
      authorization: `Bearer ${token.accessToken}`,
      "content-type": "application/json",
    },
    body: JSON.stringify(body),
  });
  expect(res.ok).toBe(true);
}
const moderation = async () => (await call<ModerationData>(h, "GET", MODERATION)).body.data;
const put = (body: unknown) => call<ModerationData>(h, "PUT", MODERATION, body);

/** The moderation re-consent, approved at the simulated Twitch, back through the callback. */
async function consent(): Promise<Response> {
  h.sim.knobs.autoApproveAs = "cuebotdemo";
  const start = await h.request("/auth/login?consent=moderation", { headers: { cookie: h.cookie } });
  const atProvider = await fetch(new URL(start.headers.get("location")!), { redirect: "manual" });
  const callback = new URL(atProvider.headers.get("location")!);
  return h.request(`${callback.pathname}${callback.search}`, {
    headers: { cookie: `${cookieHeader(start.headers.getSetCookie())}; ${h.cookie}` },
  });
}

describe("GET/PUT /api/dashboard/moderation", () => {
  test("off at first, every filter with its defaults and the shield's", async () => {
    h = await startBotHarness();
    const data = await moderation();
    expect(data).toMatchObject({ enabled: false, state: "off", reason: null });
    expect(data.filters).toEqual(DEFAULT_FILTER_SETTINGS);
    expect(data.shield).toEqual({ ...DEFAULT_SHIELD_SETTINGS, active: false, until: null });
  });

  test("turning it on turns native chat on, and without the two scopes it needs consent", async () => {
    h = await startBotHarness();
    const on = await put({ enabled: true });
    expect(on.status).toBe(200);
    expect(on.body.data).toMatchObject({
      enabled: true,
      state: "needs_consent",
      consentUrl: "/auth/login?consent=moderation",
    });
    expect(on.body.data.reason).toContain("moderator:manage:chat_messages");
    expect((await readChatSettings(h.ctx.db, h.account.id))?.enabled).toBe(true);
    expect((await put({ enabled: false })).body.data).toMatchObject({ enabled: false, state: "off" });
  });

  test("the re-consent asks for what was granted plus chat's and moderation's scopes, and turns moderation on", async () => {
    h = await startBotHarness();
    const start = await h.request("/auth/login?consent=moderation", { headers: { cookie: h.cookie } });
    const scope = new URL(start.headers.get("location")!).searchParams.get("scope")!.split(" ").sort();
    expect(scope).toEqual([...BASE_SCOPES, READ_CHAT_SCOPE, ...MODERATION_EXTRA_SCOPES].sort());
    const done = await consent();
    expect(done.headers.get("location")).toBe("/dashboard#/moderation");
    const granted = await grantedScopes(h.ctx.db, h.account.id);
    for (const s of MODERATION_EXTRA_SCOPES) expect(granted).toContain(s);
    const data = await moderation();
    expect(data).toMatchObject({ enabled: true, consentUrl: null });
    expect(data.state).not.toBe("needs_consent");
  });

  test("with moderation on, linking a bot account asks for the moderation scopes too", async () => {
    h = await startBotHarness();
    const scopesAsked = async () => {
      const start = await h.request("/auth/chat-bot", { headers: { cookie: h.cookie } });
      return new URL(start.headers.get("location")!).searchParams.get("scope")!.split(" ");
    };
    expect(await scopesAsked()).not.toContain("moderator:manage:chat_messages");
    await put({ enabled: true });
    expect(await scopesAsked()).toEqual(expect.arrayContaining([...MODERATION_SCOPES]));
  });

  test("a change names only what it changes; the rest keeps its value", async () => {
    h = await startBotHarness();
    await put({ filters: { caps: { percent: 80 } } });
    const reply = await put({ filters: { links: { allow: ["*.example.com"] } }, shield: { minutes: 10 } });
    expect(reply.status).toBe(200);
    const { filters, shield } = reply.body.data;
    expect(filters.caps).toEqual({ ...DEFAULT_FILTER_SETTINGS.caps, percent: 80 });
    expect(filters.links.allow).toEqual(["*.example.com"]);
    expect(filters.symbols).toEqual(DEFAULT_FILTER_SETTINGS.symbols);
    expect(shield).toMatchObject({ ...DEFAULT_SHIELD_SETTINGS, minutes: 10 });
  });

  test("10,000 allow-list entries are kept; one more is a 400 naming the list", async () => {
    h = await startBotHarness();
    const allow = Array.from({ length: 10_000 }, (_, i) => `host${i}.example.com`);
    expect((await put({ filters: { links: { allow } } })).status).toBe(200);
    const tooMany = await put({ filters: { links: { allow: [...allow, "one-more.example.com"] } } });
    expectRefusal(tooMany, 400, "bad_request");
    expect(tooMany.body.error.message).toContain("filters.links.allow");
    expect((await moderation()).filters.links.allow).toHaveLength(10_000);
  });

  test("bad settings are refused naming them, and nothing changes", async () => {
    h = await startBotHarness();
    const bad: [unknown, string][] = [
      [{ filters: { nope: {} } }, "filters.nope"],
      [{ filters: { caps: { nope: 1 } } }, "filters.caps.nope"],
      [{ filters: { caps: { percent: 101 } } }, "filters.caps.percent"],
      [{ filters: { caps: { timeoutSeconds: 0 } } }, "filters.caps.timeoutSeconds"],
      [{ filters: { caps: { timeoutSeconds: 1_209_601 } } }, "filters.caps.timeoutSeconds"],
      [{ filters: { links: { exempt: "king" } } }, "filters.links.exempt"],
      [{ filters: { terms: { list: ["~/(unclosed/"] } } }, "filters.terms.list[0]"],
      [{ filters: { terms: { action: "shout" } } }, "filters.terms.action"],
      [{ shield: { chatters: "many" } }, "shield.chatters"],
      [{ shield: { nope: true } }, "shield.nope"],
    ];
    for (const [body, named] of bad) {
      const reply = await put(body);
      expect({ body, status: reply.status }).toEqual({ body, status: 400 });
      expect(reply.body.error.message).toContain(named);
    }
    expectRefusal(await put({ enabled: "yes" }), 400, "bad_request", "enabled");
    expectRefusal(await put({ mode: 1 }), 400, "bad_request", "mode");
    expect(await readModerationRules(h.ctx.db, h.account.id)).toBeNull();
    expect(await readModerationChannel(h.ctx.db, h.account.id)).toBeNull();
  });
});

describe("trying a line", () => {
  const tryLine = (text: unknown, level?: string) =>
    call<{ caught: boolean; filter: string | null; action: string | null }>(h, "POST", `${MODERATION}/test`, {
      text,
      ...(level === undefined ? {} : { level }),
    });

  test("says what would happen, changes nothing", async () => {
    h = await startBotHarness();
    expect((await tryLine("visit example(dot)com now", "everyone")).body.data).toEqual({
      caught: true,
      filter: "links",
      action: "warned",
    });
    expect((await tryLine("visit example(dot)com now", "regular")).body.data).toEqual({
      caught: false,
      filter: null,
      action: null,
    });
    await put({ filters: { terms: { list: ["badword"], action: "ban" } } });
    expect((await tryLine("you b\u200badword", "subscriber")).body.data).toMatchObject({
      filter: "terms",
      action: "ban",
    });
    expect((await tryLine("anything at all", "moderator")).body.data.caught).toBe(false);
    expectRefusal(await tryLine("x", "king"), 400, "bad_request");
    expectRefusal(await tryLine(42), 400, "bad_request", "text");
    expectRefusal(await tryLine("a".repeat(501)), 400, "bad_request", "text");
  });
});

describe("the log and the shield", () => {
  const entry = (i: number, action: "deleted" | "timeout" | "ban", userId = "100003") => ({
    at: 1_800_000_000_000 + i,
    userId,
    userLogin: "viewer_anna",
    userName: "Viewer_Anna",
    filter: "links" as const,
    action,
    seconds: action === "timeout" ? 600 : null,
    text: `line ${i}`,
  });

  test("newest first, in pages with a cursor", async () => {
    h = await startBotHarness();
    for (let i = 0; i < 60; i++) await addModerationLogEntry(h.ctx.db, h.account.id, entry(i, "deleted"));
    const first = await call<{ items: LogItem[]; cursor: string | null }>(h, "GET", `${MODERATION}/log`);
    expect(first.body.data.items).toHaveLength(50);
    expect(first.body.data.items[0]).toMatchObject({
      action: "deleted",
      filter: "links",
      text: "line 59",
      undone: false,
      user: { id: "100003", login: "viewer_anna", name: "Viewer_Anna" },
    });
    const next = await call<{ items: LogItem[]; cursor: string | null }>(
      h,
      "GET",
      `${MODERATION}/log?before=${first.body.data.cursor}`,
    );
    expect(next.body.data.items.map((i) => i.text)).toEqual(
      Array.from({ length: 10 }, (_, i) => `line ${9 - i}`),
    );
    expect(next.body.data.cursor).toBeNull();
    expectRefusal(await call(h, "GET", `${MODERATION}/log?before=abc`), 400, "bad_request", "before");
  });

  test("undo lifts a timeout at Twitch and marks it; a deletion cannot be undone", async () => {
    h = await startBotHarness();
    await helixAsStreamer(
      "POST",
      "/moderation/bans?broadcaster_id=100001&moderator_id=100001",
      { data: { user_id: "100003", duration: 600, reason: "test" } },
      [...BASE_SCOPES],
    );
    const timeout = await addModerationLogEntry(h.ctx.db, h.account.id, entry(1, "timeout"));
    const deletion = await addModerationLogEntry(h.ctx.db, h.account.id, entry(2, "deleted"));
    const undone = await call<LogItem>(h, "POST", `${MODERATION}/log/${timeout}/undo`);
    expect(undone.status).toBe(200);
    expect(undone.body.data).toMatchObject({ id: timeout, undone: true });
    expect(h.sim.world.bans.some((b) => b.user_id === "100003")).toBe(false);
    expectRefusal(await call(h, "POST", `${MODERATION}/log/${deletion}/undo`), 400, "bad_request");
    expectRefusal(await call(h, "POST", `${MODERATION}/log/99999/undo`), 404, "not_found");
    expectRefusal(await call(h, "POST", `${MODERATION}/log/x/undo`), 400, "bad_request", "id");
  });

  test("ending the shield turns followers-only chat off at once", async () => {
    h = await startBotHarness();
    await consent();
    await helixAsStreamer(
      "PATCH",
      "/chat/settings?broadcaster_id=100001&moderator_id=100001",
      { follower_mode: true },
      [...BASE_SCOPES, ...MODERATION_EXTRA_SCOPES],
    );
    await writeShieldUntil(h.ctx.db, h.account.id, h.ctx.clock.now() + 300_000, h.ctx.clock.now());
    expect((await moderation()).shield.active).toBe(true);
    const ended = await call<ModerationData>(h, "POST", `${MODERATION}/shield`, { active: false });
    expect(ended.status).toBe(200);
    expect(ended.body.data.shield).toMatchObject({ active: false, until: null });
    expect(h.sim.chat.settings("cuebotdemo").follower_mode).toBe(false);
    expectRefusal(
      await call(h, "POST", `${MODERATION}/shield`, { active: true }),
      400,
      "bad_request",
      "active",
    );
  });

  test("every route needs the session and our Origin, and is on /docs", async () => {
    h = await startBotHarness();
    await expectPanelSecurity(h, [
      { method: "GET", path: MODERATION },
      { method: "PUT", path: MODERATION, body: { enabled: true } },
      { method: "POST", path: `${MODERATION}/shield`, body: { active: false } },
      { method: "GET", path: `${MODERATION}/log` },
      { method: "POST", path: `${MODERATION}/log/1/undo` },
      { method: "POST", path: `${MODERATION}/test`, body: { text: "x" } },
    ]);
    await expectDocumented(h, {
      [MODERATION]: ["get", "put"],
      [`${MODERATION}/shield`]: ["post"],
      [`${MODERATION}/log`]: ["get"],
      [`${MODERATION}/log/{id}/undo`]: ["post"],
      [`${MODERATION}/test`]: ["post"],
    });
  });
});

describe("the export and account deletion", () => {
  test("the export carries moderation's settings and log; deleting the account removes them", async () => {
    h = await startBotHarness();
    await put({ enabled: true, filters: { caps: { percent: 90 } } });
    await addModerationLogEntry(h.ctx.db, h.account.id, {
      at: h.ctx.clock.now(),
      userId: "100003",
      userLogin: "viewer_anna",
      userName: "Viewer_Anna",
      filter: "caps",
      action: "warned",
      seconds: null,
      text: "WHY SO LOUD",
    });
    const exported = (await (await h.panel("/api/dashboard/export")).json()) as {
      moderation: { enabled: boolean; filters: { caps?: { percent?: number } }; log: { text: string }[] };
    };
    expect(exported.moderation.enabled).toBe(true);
    expect(exported.moderation.filters.caps?.percent).toBe(90);
    expect(exported.moderation.log.map((e) => e.text)).toEqual(["WHY SO LOUD"]);
    const gone = await h.panel("/api/dashboard/account", { method: "DELETE" });
    expect(gone.status).toBe(200);
    for (const table of ["moderation_channels", "moderation_rules", "moderation_log"]) {
      expect((await h.sql(`SELECT CAST(count(*) AS INTEGER) AS n FROM ${table}`))[0]).toEqual({ n: 0 });
    }
  });
});
