import { afterEach, describe, expect, test } from "bun:test";
import { grantedScopes } from "../../../db/oauth-tokens.ts";
import { ALERT_EXTRA_SCOPES, BASE_SCOPES, SHOUTOUT_SCOPE } from "../../../server/twitch/scopes.ts";
import { type BotHarness, consentAs, startBotHarness } from "../../helpers/bot.ts";

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

interface ProfileScopes {
  features: { platform_shoutout: boolean; moderator_list: boolean };
  consent_urls: { platform_shoutout: string | null; moderator_list: string | null };
}

const profile = async () =>
  ((await (await h.panel("/api/dashboard/profile")).json()) as { data: ProfileScopes }).data;
const shoutout = async (user: string) =>
  (
    (await (await h.bot(`/api/bot/shoutout?user=${user}`)).json()) as {
      data: { platform_shoutout: string; text: string };
    }
  ).data;
const shoutoutsSent = () => h.sim.calls.get("POST /helix/chat/shoutouts") ?? 0;

describe("Twitch's own shoutout through the dashboard's Allow (consent=shoutout)", () => {
  test("before: ticked by default yet not granted, it offers the consent and sends nothing to Twitch", async () => {
    h = await startBotHarness();
    expect(await profile()).toMatchObject({
      features: { platform_shoutout: false, moderator_list: false },
      consent_urls: {
        platform_shoutout: "/auth/login?consent=shoutout",
        moderator_list: "/auth/login?consent=moderators",
      },
    });
    const reply = await shoutout("otherstreamer");
    expect(reply.platform_shoutout).toBe("not_granted");
    expect(reply.text).toBe(
      "Go check out OtherStreamer! They were last playing VALORANT: https://twitch.tv/otherstreamer",
    );
    expect(shoutoutsSent()).toBe(0);
  });

  test("the round trip asks for every earlier grant plus the shoutout scope, stores it, and the shoutout then reaches Twitch", async () => {
    h = await startBotHarness();
    await consentAs(h, "alerts", "cuebotdemo");
    const { asked, done } = await consentAs(h, "shoutout", "cuebotdemo");
    expect(asked.sort()).toEqual([...BASE_SCOPES, ...ALERT_EXTRA_SCOPES, SHOUTOUT_SCOPE].sort());
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/dashboard#/commands");
    expect(await grantedScopes(h.ctx.db, h.account.id)).toEqual(
      expect.arrayContaining([...BASE_SCOPES, ...ALERT_EXTRA_SCOPES, SHOUTOUT_SCOPE]),
    );
    const after = await profile();
    expect(after.features.platform_shoutout).toBe(true);
    expect(after.consent_urls.platform_shoutout).toBeNull();
    // The alerts' grant is kept: they need no consent.
    const alerts = (await (await h.panel("/api/dashboard/alerts")).json()) as {
      data: { consentUrl: string | null };
    };
    expect(alerts.data.consentUrl).toBeNull();

    expect((await shoutout("otherstreamer")).platform_shoutout).toBe("sent");
    expect(shoutoutsSent()).toBe(1);
  });

  test("a later consent (chat) keeps the shoutout's grant, and a plain login does too", async () => {
    h = await startBotHarness();
    await consentAs(h, "shoutout", "cuebotdemo");
    const { asked } = await consentAs(h, "chat", "cuebotdemo");
    expect(asked).toContain(SHOUTOUT_SCOPE);
    await h.login("cuebotdemo");
    expect(await grantedScopes(h.ctx.db, h.account.id)).toContain(SHOUTOUT_SCOPE);
    expect((await profile()).consent_urls.platform_shoutout).toBeNull();
  });

  test("a denied consent changes nothing: the Allow stays and the shoutout stays a chat line", async () => {
    h = await startBotHarness();
    h.sim.knobs.deny = true;
    expect((await consentAs(h, "shoutout", "cuebotdemo")).done.status).toBe(403);
    expect((await profile()).consent_urls.platform_shoutout).toBe("/auth/login?consent=shoutout");
    expect((await shoutout("otherstreamer")).platform_shoutout).toBe("not_granted");
  });

  test("approved by another Twitch user: nothing stored, the page offers to try again with the same consent", async () => {
    h = await startBotHarness();
    const { done } = await consentAs(h, "shoutout", "viewer_anna", { accept: "application/json" });
    expect(done.status).toBe(403);
    expect(await grantedScopes(h.ctx.db, h.account.id)).not.toContain(SHOUTOUT_SCOPE);
  });
});

describe("listing moderators through the dashboard's Allow (consent=moderators)", () => {
  test("before it, target=random is refused saying where to allow it; after it, the roulette picks a chatter", async () => {
    h = await startBotHarness();
    const refused = await h.bot("/api/bot/roulette?target=random");
    expect(refused.status).toBe(403);
    const body = (await refused.json()) as { error: { message: string } };
    expect(body.error.message).toContain("press Allow under !roulette");

    const { asked, done } = await consentAs(h, "moderators", "cuebotdemo");
    expect(asked).toContain("moderation:read");
    expect(done.headers.get("location")).toBe("/dashboard#/commands");
    expect((await profile()).consent_urls.moderator_list).toBeNull();
    expect((await h.bot("/api/bot/roulette?target=random")).status).toBe(200);
  });

  test("CUEBOT_TWITCH_EXTRA_SCOPES still grants both at login, for scripts: no Allow is offered", async () => {
    h = await startBotHarness({
      env: { CUEBOT_TWITCH_EXTRA_SCOPES: "moderator:manage:shoutouts moderation:read" },
    });
    expect(await profile()).toMatchObject({
      features: { platform_shoutout: true, moderator_list: true },
      consent_urls: { platform_shoutout: null, moderator_list: null },
    });
  });
});
