import { afterEach, describe, expect, test } from "bun:test";
import { setNeedsReauth } from "../../../db/accounts.ts";
import { grantedScopes, loadProviderTokens } from "../../../db/oauth-tokens.ts";
import { loginReplacesGrant } from "../../../server/identity/provider-tokens.ts";
import { BASE_SCOPES } from "../../../server/twitch/scopes.ts";
import { type BotHarness, startBotHarness } from "../../helpers/bot.ts";
import { cookieHeader } from "../../helpers/twitch.ts";

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

const ALERT_SCOPES = ["bits:read", "channel:read:redemptions"];
const CHAT_SCOPE = "user:read:chat";

/**
 * A re-consent through the simulated Twitch, in this browser: with the session cookie (the
 * dashboard's button) or without one (the session expired before the click).
 */
async function consent(
  kind: "chat" | "alerts",
  withSession = true,
): Promise<{ done: Response; asked: string[] }> {
  h.sim.knobs.autoApproveAs = "cuebotdemo";
  const session = withSession ? { cookie: h.cookie } : undefined;
  const start = await h.request(`/auth/login?consent=${kind}`, { headers: session });
  expect(start.status).toBe(302);
  const authorize = new URL(start.headers.get("location")!);
  const atProvider = await fetch(authorize, { redirect: "manual" });
  const callback = new URL(atProvider.headers.get("location")!);
  const cookies = cookieHeader(start.headers.getSetCookie());
  const done = await h.request(`${callback.pathname}${callback.search}`, {
    headers: { cookie: withSession ? `${cookies}; ${h.cookie}` : cookies },
  });
  expect(done.status).toBe(302);
  return { done, asked: authorize.searchParams.get("scope")!.split(" ") };
}

const tokens = () => loadProviderTokens(h.ctx.db, h.ctx.secrets, h.account.id);
const panelData = async <T>(path: string) => ((await (await h.panel(path)).json()) as { data: T }).data;

interface FeatureData {
  enabled: boolean;
  consentUrl: string | null;
  types?: { type: string; state: string }[];
}

describe("a plain login never takes away what a re-consent granted", () => {
  test("after the alerts' consent, a plain login keeps bits:read and channel:read:redemptions and alerts stay connected", async () => {
    h = await startBotHarness();
    await consent("alerts");
    const granted = await tokens();
    expect(granted!.scopes).toEqual(expect.arrayContaining(ALERT_SCOPES));

    const { response } = await h.login("cuebotdemo");
    expect(response.headers.get("location")).toBe("/dashboard");
    const after = await tokens();
    expect(after!.scopes).toEqual(expect.arrayContaining([...BASE_SCOPES, ...ALERT_SCOPES]));
    expect(after!.accessToken).toBe(granted!.accessToken);
    const alerts = await panelData<FeatureData>("/api/dashboard/alerts");
    expect(alerts).toMatchObject({ enabled: true, consentUrl: null });
    expect(alerts.types!.filter((t) => t.state === "needs_consent")).toEqual([]);
  });

  test("after native chat's consent, a plain login keeps user:read:chat and chat needs no consent", async () => {
    h = await startBotHarness();
    await consent("chat");
    expect(await grantedScopes(h.ctx.db, h.account.id)).toContain(CHAT_SCOPE);

    await h.login("cuebotdemo");
    expect(await grantedScopes(h.ctx.db, h.account.id)).toContain(CHAT_SCOPE);
    expect(await panelData<FeatureData>("/api/dashboard/chat")).toMatchObject({
      enabled: true,
      consentUrl: null,
    });
  });

  test("chat's consent begun without a session asks for the base scopes and the chat scope, and keeps the alerts' scopes", async () => {
    h = await startBotHarness();
    await consent("alerts");
    const { done, asked } = await consent("chat", false);
    expect(asked.sort()).toEqual([...BASE_SCOPES, CHAT_SCOPE].sort());
    expect(done.headers.get("location")).toBe("/dashboard#/chat");
    expect(await grantedScopes(h.ctx.db, h.account.id)).toEqual(expect.arrayContaining(ALERT_SCOPES));
    const alerts = await panelData<FeatureData>("/api/dashboard/alerts");
    expect(alerts).toMatchObject({ enabled: true, consentUrl: null });
    // Chat's link now asks for everything at once (the browser has a session again).
    const chat = await panelData<FeatureData>("/api/dashboard/chat");
    expect(chat.consentUrl).toBe("/auth/login?consent=chat");
    await consent("chat");
    expect(await grantedScopes(h.ctx.db, h.account.id)).toEqual(
      expect.arrayContaining([...BASE_SCOPES, ...ALERT_SCOPES, CHAT_SCOPE]),
    );
  });

  test("an account that must log in again takes the new, narrower grant", async () => {
    h = await startBotHarness();
    await consent("alerts");
    const before = await tokens();
    await setNeedsReauth(h.ctx.db, h.account.id, true, h.ctx.clock.now());
    h.ctx.accounts.invalidate();

    await h.login("cuebotdemo");
    const after = await tokens();
    expect(after!.accessToken).not.toBe(before!.accessToken);
    expect(after!.scopes.sort()).toEqual([...BASE_SCOPES].sort());
    expect(await panelData<FeatureData>("/api/dashboard/alerts")).toMatchObject({
      consentUrl: "/auth/login?consent=alerts",
    });
  });
});

describe("loginReplacesGrant", () => {
  test("a grant holding every stored scope replaces it; one lacking any does not, unless re-auth is needed", () => {
    expect(loginReplacesGrant([], BASE_SCOPES, false)).toBe(true);
    expect(loginReplacesGrant(BASE_SCOPES, [...BASE_SCOPES, "bits:read"], false)).toBe(true);
    expect(loginReplacesGrant([...BASE_SCOPES, "bits:read"], BASE_SCOPES, false)).toBe(false);
    expect(loginReplacesGrant([...BASE_SCOPES, "bits:read"], BASE_SCOPES, true)).toBe(true);
    expect(loginReplacesGrant(["bits:read", "bits:read"], ["bits:read"], false)).toBe(true);
    expect(loginReplacesGrant(["bits:read"], [], true)).toBe(true);
  });

  test("scopes compare exactly: a look-alike (other case, Unicode, spaces) is not the stored scope", () => {
    for (const lookAlike of ["BITS:READ", "bits:read ", "bits\u200b:read", "bіts:read", ""]) {
      expect(loginReplacesGrant(["bits:read"], [lookAlike], false)).toBe(false);
    }
    const huge = Array.from({ length: 10_000 }, (_, i) => `scope:${i}`);
    expect(loginReplacesGrant(huge, [...huge].reverse(), false)).toBe(true);
    expect(loginReplacesGrant(huge, huge.slice(1), false)).toBe(false);
  });
});
