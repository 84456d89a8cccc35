/**
 * The alerts runtime after the outside reviews, through the Twitch simulator: a deleted account's
 * socket closes, "allow cuebot again" brings a revoked type back, a burst is published in id order,
 * a repeat follow shows once, the live state is forgotten when the socket drops, and the state stored
 * at shutdown is the one the server gives. SQLite, or PostgreSQL with CUEBOT_TEST_DATABASE=postgres.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { StreamWatch } from "../../../server/custom/timer-live.ts";
import { removeAccount } from "../../../server/identity/account-removal.ts";
import { startLive } from "../../../server/live-runtime.ts";
import { alertsPanelData } from "../../../server/panel/alerts.ts";
import { SIM_IDS } from "../../../server/sim/twitch/world.ts";
import { type AlertsHarness, otherSession, recordOverlay, startAlertsHarness } from "../../helpers/alerts.ts";
import { CHAT_SECOND_MS, waitFor } from "../../helpers/chat.ts";

let h: AlertsHarness;
afterEach(async () => {
  await h.stop();
});

async function served() {
  h = await startAlertsHarness();
  await h.grant();
  h.serve();
  expect(await h.alertsConnected()).toBe(true);
  return recordOverlay(h.ctx, h.account.id);
}

interface SimSubscription {
  type: string;
  status: string;
  sessionId: string;
  userId: string;
}
async function subscriptions(): Promise<SimSubscription[]> {
  const res = await fetch(`${h.sim.authUrl}/_sim/eventsub/subscriptions`);
  return ((await res.json()) as { data: SimSubscription[] }).data;
}
const enabledOfStreamer = async () =>
  (await subscriptions()).filter((s) => s.userId === SIM_IDS.demo && s.status === "enabled");
const storedCount = async () =>
  Number(((await h.sql("SELECT COUNT(*) AS n FROM alert_events"))[0] as { n: number | string }).n);

describe("alerts: a deleted account", () => {
  test("its alerts socket closes: no subscription stays enabled and an emitted follow stores nothing", async () => {
    await served();
    expect((await enabledOfStreamer()).length).toBeGreaterThan(0);
    await removeAccount(h.ctx, h.account, "panel");
    expect(await waitFor(async () => (await enabledOfStreamer()).length === 0, 10_000)).toBe(true);
    await h.emit("follow", { user: "viewer_anna" });
    await Bun.sleep(300);
    expect(await storedCount()).toBe(0);
  });
});

describe("alerts: allowing cuebot again after a revocation", () => {
  test("a revoked type needs consent with a consent link; a new grant connects it again and its next event shows", async () => {
    const overlay = await served();
    await h.control("revoke", {
      user_id: SIM_IDS.demo,
      type: "channel.cheer",
      reason: "authorization_revoked",
    });
    const cheer = async () =>
      (await h.ctx.alertsStatus.status(h.account.id)).types.find((t) => t.type === "cheer");
    expect(await waitFor(async () => (await cheer())?.state === "needs_consent", 10_000)).toBe(true);
    // Every scope is granted: the link is offered because Twitch revoked the type.
    expect((await h.ctx.alertsStatus.status(h.account.id)).missingScopes).toEqual([]);
    expect((await alertsPanelData(h.ctx, h.account)).consentUrl).toBe("/auth/login?consent=alerts");
    // The re-consent's callback stores the new tokens and syncs alerts.
    await h.grant();
    await h.ctx.alertsStatus.sync(h.account.id);
    expect(await waitFor(async () => (await cheer())?.state === "connected", 10_000)).toBe(true);
    expect((await alertsPanelData(h.ctx, h.account)).consentUrl).toBeNull();
    await h.emit("cheer", { user: "modbob", bits: 100 });
    expect(await waitFor(() => overlay.alerts.some((a) => a.type === "cheer"), 10_000)).toBe(true);
  });

  test("every type revoked stops the socket; allowing cuebot again opens it and alerts show", async () => {
    const overlay = await served();
    await h.control("revoke", { user_id: SIM_IDS.demo, reason: "user_removed" });
    const state = async () => (await h.ctx.alertsStatus.status(h.account.id)).state;
    expect(await waitFor(async () => (await state()) === "needs_consent", 10_000)).toBe(true);
    expect((await alertsPanelData(h.ctx, h.account)).consentUrl).toBe("/auth/login?consent=alerts");
    await h.grant();
    await h.ctx.alertsStatus.sync(h.account.id);
    expect(await h.alertsConnected()).toBe(true);
    await h.emit("follow", { user: "viewer_anna" });
    expect(await waitFor(() => overlay.alerts.length === 1, 10_000)).toBe(true);
  });
});

describe("alerts: bursts and floods", () => {
  test("a burst of cheers arriving together is published in id order, each once", async () => {
    const overlay = await served();
    const bits = Array.from({ length: 12 }, (_, i) => i + 1);
    await Promise.all(bits.map((n) => h.emit("cheer", { user: "modbob", bits: n })));
    expect(await waitFor(() => overlay.alerts.length === bits.length, 10_000)).toBe(true);
    const ids = overlay.alerts.map((a) => a.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(bits.length);
  }, 15_000);

  test("a follow/unfollow wave shows each follower once", async () => {
    const overlay = await served();
    for (let i = 0; i < 3; i++) await h.emit("follow", { user: "viewer_anna" });
    await h.emit("follow", { user: "lurker_eve" });
    expect(await waitFor(() => overlay.alerts.length === 2, 10_000)).toBe(true);
    await Bun.sleep(300);
    expect(overlay.alerts.map((a) => a.fields.user)).toEqual(["Viewer_Anna", "Lurker_Eve"]);
  });
});

describe("alerts: thanks lines in a flood", () => {
  test("five cheers in a row: five alerts, one thanks line (at most one per type per 10 s)", async () => {
    h = await startAlertsHarness();
    await h.grant({ chat: true });
    await h.settings("cheer", { chatMessage: "Thanks for the {amount} bits, {user}!" });
    h.serve();
    expect(await h.alertsConnected()).toBe(true);
    expect(
      await waitFor(async () => (await h.ctx.chat.status(h.account.id)).state === "connected", 5000),
    ).toBe(true);
    const overlay = recordOverlay(h.ctx, h.account.id);
    for (let bits = 1; bits <= 5; bits++) await h.emit("cheer", { user: "modbob", bits });
    expect(await waitFor(() => overlay.alerts.length === 5, 10_000)).toBe(true);
    const lines = () => h.sim.chat.sent().filter((x) => x.isSent && x.replyParentMessageId === null);
    expect(await waitFor(() => lines().length === 1, 10_000)).toBe(true);
    await Bun.sleep(400);
    expect(lines().map((l) => l.text)).toEqual(["Thanks for the 1 bits, ModBob!"]);
  });
});

describe("alerts: a subscription another session holds (409)", () => {
  test("is moved to cuebot's socket, so the follow reaches the overlay", async () => {
    h = await startAlertsHarness();
    await h.grant();
    const other = await otherSession(h);
    try {
      const { accessToken } = h.sim.issueUserToken("cuebotdemo", ["moderator:read:followers"]);
      const held = await fetch(`${h.sim.helixUrl}/eventsub/subscriptions`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${accessToken}`,
          "client-id": h.sim.client.id,
          "content-type": "application/json",
        },
        body: JSON.stringify({
          type: "channel.follow",
          version: "2",
          condition: { broadcaster_user_id: SIM_IDS.demo, moderator_user_id: SIM_IDS.demo },
          transport: { method: "websocket", session_id: other.id },
        }),
      });
      expect(held.status).toBe(202);
      h.serve();
      expect(await h.alertsConnected()).toBe(true);
      const overlay = recordOverlay(h.ctx, h.account.id);
      const follows = (await enabledOfStreamer()).filter((s) => s.type === "channel.follow");
      expect(follows).toHaveLength(1);
      expect(follows[0]?.sessionId).not.toBe(other.id);
      await h.emit("follow", { user: "viewer_anna" });
      expect(await waitFor(() => overlay.alerts.length === 1, 10_000)).toBe(true);
    } finally {
      other.socket.close();
    }
  });
});

describe("alerts: the live state", () => {
  test("is forgotten when the socket drops (a stream.offline may be missed meanwhile)", async () => {
    await served();
    await h.emit("online");
    expect(await waitFor(() => h.ctx.live.streamState(h.account.id)?.live === true, 10_000)).toBe(true);
    const sessionId = (await enabledOfStreamer())[0]?.sessionId;
    const res = await h.control("close", { session_id: sessionId, code: 4000 });
    expect(res.status).toBe(200);
    expect(await waitFor(() => h.ctx.live.streamState(h.account.id) === null, 10_000)).toBe(true);
    expect(await h.alertsConnected()).toBe(true);
    expect(h.ctx.live.streamState(h.account.id)).toBeNull();
  });

  test("a heard stream.online is believed over Helix's offline for a few minutes, then Helix is", async () => {
    await served();
    h.sim.setLive(SIM_IDS.demo, false);
    await h.emit("online");
    expect(await waitFor(() => h.ctx.live.streamState(h.account.id)?.live === true, 10_000)).toBe(true);
    const now = new StreamWatch(h.ctx, h.ctx.clock);
    expect((await now.status(h.account)).startedAt).not.toBeNull();
    const later = new StreamWatch(h.ctx, { now: () => Date.now() + 6 * 60_000 });
    expect((await later.status(h.account)).startedAt).toBeNull();
  });
});

describe("alerts: the state stored at shutdown", () => {
  test("is the reason the server gives (a Redis outage), as chat's", async () => {
    h = await startAlertsHarness();
    await h.grant();
    const runtime = startLive(h.ctx, { secondMs: CHAT_SECOND_MS });
    expect(await h.alertsConnected()).toBe(true);
    await runtime.close({ end: { state: "error", reason: "Redis is away" } });
    expect(await h.sql("SELECT state, reason FROM alert_channels")).toEqual([
      { state: "error", reason: "Redis is away" },
    ]);
  });
});
