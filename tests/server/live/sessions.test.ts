/**
 * One live connection per Twitch user (CONTRACT §6), seen at the Twitch simulator: chat and alerts of
 * a streamer who speaks as themselves share one EventSub session; a linked bot account reads chat on
 * its own; switching one feature off leaves the other's socket and subscriptions as they were.
 * SQLite, or PostgreSQL with CUEBOT_TEST_DATABASE=postgres.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { setAlertsEnabled } from "../../../db/alerts.ts";
import { storeChatBot, writeChatEnabled } from "../../../db/chat.ts";
import type { SimSessionInfo, SimSubscriptionInfo } from "../../../server/sim/twitch/eventsub/state.ts";
import { SIM_IDS } from "../../../server/sim/twitch/world.ts";
import {
  type AlertsHarness,
  type OverlayRecorder,
  otherSession,
  recordOverlay,
  startAlertsHarness,
} from "../../helpers/alerts.ts";
import { waitFor } from "../../helpers/chat.ts";

const BOT_ID = "100004";
const CHAT_TYPE = "channel.chat.message";
const ALERT_TYPES = [
  "channel.follow",
  "channel.subscribe",
  "channel.subscription.message",
  "channel.subscription.gift",
  "channel.cheer",
  "channel.raid",
  "channel.channel_points_custom_reward_redemption.add",
];
/** Heard once per channel on its owner's session, for every feature (live/stream-state.ts). */
const STREAM_TYPES = ["stream.online", "stream.offline"];

let h: AlertsHarness;
afterEach(async () => {
  await h.stop();
});

const openSessions = (): SimSessionInfo[] => h.sim.chat.sessions().filter((s) => s.status !== "closed");
const enabled = (): SimSubscriptionInfo[] => h.sim.chat.subscriptions().filter((s) => s.status === "enabled");
const typesOn = (sessionId: string) =>
  enabled()
    .filter((s) => s.sessionId === sessionId)
    .map((s) => s.type)
    .sort();
const chatConnected = () =>
  waitFor(async () => (await h.ctx.chat.status(h.account.id)).state === "connected");

/** The streamer's chat (as themselves, or with `bot`) and alerts on, running as `serve` runs them. */
async function serveBoth(options: { bot?: boolean } = {}): Promise<OverlayRecorder> {
  h = await startAlertsHarness();
  if (options.bot) await linkBot();
  await h.grant({ chat: true });
  h.serve();
  expect(await chatConnected()).toBe(true);
  expect(await h.alertsConnected()).toBe(true);
  return recordOverlay(h.ctx, h.account.id);
}

async function linkBot(): Promise<void> {
  const scopes = ["user:read:chat", "user:write:chat", "user:read:moderated_channels"];
  const issued = h.sim.issueUserToken("modbob", scopes);
  const bot = { twitchUserId: BOT_ID, login: "modbob", displayName: "ModBob", ...issued, scopes };
  const stored = { ...bot, expiresAt: Date.now() + 3_600_000, needsReauth: false };
  await storeChatBot(h.ctx.db, h.ctx.secrets, h.account.id, stored, Date.now());
}

/** A viewer asks `!magic8`: the reply cuebot posts, as whom. */
async function magic8(): Promise<{ senderId: string } | null> {
  const id = h.sim.chat.say({ channel: "cuebotdemo", user: "viewer_anna", text: "!magic8 one socket?" });
  return h.replyTo(id);
}

async function followReaches(overlay: OverlayRecorder, user: string): Promise<boolean> {
  const before = overlay.alerts.length;
  await h.emit("follow", { user });
  return (await waitFor(() => overlay.alerts.length > before, 10_000)) === true;
}

describe("live: one EventSub session per Twitch user", () => {
  test("a streamer speaking as themselves with chat and alerts on has one session carrying every subscription", async () => {
    const overlay = await serveBoth();
    const sessions = openSessions();
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.userId).toBe(SIM_IDS.demo);
    expect(typesOn(sessions[0]!.id)).toEqual([CHAT_TYPE, ...ALERT_TYPES, ...STREAM_TYPES].sort());
    expect(enabled().every((s) => s.sessionId === sessions[0]!.id)).toBe(true);
    expect(await magic8()).toMatchObject({ senderId: SIM_IDS.demo });
    expect(await followReaches(overlay, "viewer_anna")).toBe(true);
    expect(overlay.alerts.map((a) => a.type)).toEqual(["follow"]);
    // Still one, after all that.
    expect(openSessions()).toHaveLength(1);
  });

  test("with a linked bot account, chat reads on the bot's session and alerts on the streamer's", async () => {
    const overlay = await serveBoth({ bot: true });
    const sessions = openSessions();
    expect(sessions.map((s) => s.userId).sort()).toEqual([SIM_IDS.demo, BOT_ID].sort());
    const bot = sessions.find((s) => s.userId === BOT_ID)!;
    const streamer = sessions.find((s) => s.userId === SIM_IDS.demo)!;
    expect(typesOn(bot.id)).toEqual([CHAT_TYPE]);
    expect(typesOn(streamer.id)).toEqual([...ALERT_TYPES, ...STREAM_TYPES].sort());
    expect(await magic8()).toMatchObject({ senderId: BOT_ID });
    expect(await followReaches(overlay, "viewer_anna")).toBe(true);
  });

  test("turning alerts off keeps chat's session and subscription; their alerts' subscriptions go", async () => {
    const overlay = await serveBoth();
    const session = openSessions()[0]!;
    await setAlertsEnabled(h.ctx.db, h.account.id, false, Date.now());
    await h.ctx.alertsStatus.sync(h.account.id);
    // The stream's online/offline stays: the streamer's chat hears it for every feature.
    expect(await waitFor(() => typesOn(session.id).length === 3)).toBe(true);
    expect(typesOn(session.id)).toEqual([CHAT_TYPE, ...STREAM_TYPES].sort());
    expect(openSessions().map((s) => s.id)).toEqual([session.id]);
    expect(await magic8()).not.toBeNull();
    await h.emit("follow", { user: "viewer_anna" });
    await Bun.sleep(200);
    expect(overlay.alerts).toHaveLength(0);
    expect((await h.ctx.chat.status(h.account.id)).state).toBe("connected");
  });

  test("turning chat off keeps alerts' session and subscriptions; chat's goes and nothing is answered", async () => {
    const overlay = await serveBoth();
    const session = openSessions()[0]!;
    await writeChatEnabled(h.ctx.db, h.account.id, false, Date.now());
    await h.ctx.chat.sync(h.account.id);
    expect(await waitFor(() => !typesOn(session.id).includes(CHAT_TYPE))).toBe(true);
    expect(typesOn(session.id)).toEqual([...ALERT_TYPES, ...STREAM_TYPES].sort());
    expect(openSessions().map((s) => s.id)).toEqual([session.id]);
    expect(await followReaches(overlay, "viewer_anna")).toBe(true);
    const id = h.sim.chat.say({ channel: "cuebotdemo", user: "viewer_anna", text: "!magic8 anyone?" });
    expect(await h.replyTo(id, 300)).toBeNull();
    expect((await h.ctx.alertsStatus.status(h.account.id)).state).toBe("connected");
  });

  test("chat turned on again after off subscribes on the same session, and is answered", async () => {
    await serveBoth();
    const session = openSessions()[0]!;
    await writeChatEnabled(h.ctx.db, h.account.id, false, Date.now());
    await h.ctx.chat.sync(h.account.id);
    await writeChatEnabled(h.ctx.db, h.account.id, true, Date.now());
    await h.ctx.chat.sync(h.account.id);
    expect(await chatConnected()).toBe(true);
    // The deletion of the old subscription never races away the new one.
    await Bun.sleep(200);
    expect(typesOn(session.id).filter((t) => t === CHAT_TYPE)).toHaveLength(1);
    expect(openSessions()).toHaveLength(1);
    expect(await magic8()).not.toBeNull();
  });

  test("a revoked alert type needs consent alone; chat on the same session keeps answering", async () => {
    await serveBoth();
    await h.control("revoke", {
      user_id: SIM_IDS.demo,
      type: "channel.cheer",
      reason: "authorization_revoked",
    });
    const cheer = async () =>
      (await h.ctx.alertsStatus.status(h.account.id)).types.find((t) => t.type === "cheer")?.state;
    expect(await waitFor(async () => (await cheer()) === "needs_consent")).toBe(true);
    expect(openSessions()).toHaveLength(1);
    expect(await magic8()).not.toBeNull();
    expect((await h.ctx.chat.status(h.account.id)).state).toBe("connected");
  });
});

describe("live: a subscription another session of the user holds (409)", () => {
  test("chat's is moved to cuebot's session, so the line is answered there", async () => {
    h = await startAlertsHarness();
    const other = await otherSession(h);
    try {
      const { accessToken } = h.sim.issueUserToken("cuebotdemo", ["user:read:chat"]);
      const held = await fetch(`${h.sim.helixUrl}/eventsub/subscriptions`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${accessToken}`,
          "client-id": h.sim.client.id,
          "content-type": "application/json",
        },
        body: JSON.stringify({
          type: CHAT_TYPE,
          version: "1",
          condition: { broadcaster_user_id: SIM_IDS.demo, user_id: SIM_IDS.demo },
          transport: { method: "websocket", session_id: other.id },
        }),
      });
      expect(held.status).toBe(202);
      await h.startChat();
      expect(await chatConnected()).toBe(true);
      const chat = enabled().filter((s) => s.type === CHAT_TYPE);
      expect(chat).toHaveLength(1);
      expect(chat[0]?.sessionId).not.toBe(other.id);
      expect(await magic8()).not.toBeNull();
    } finally {
      other.socket.close();
    }
  });
});

describe("live: the stream going online or offline, known once", () => {
  test("heard on the streamer's session, it is what the dashboard and timers both read", async () => {
    await serveBoth();
    await h.emit("online");
    expect(await waitFor(() => h.ctx.live.streamState(h.account.id)?.live === true, 10_000)).toBe(true);
    expect((await h.ctx.alertsStatus.status(h.account.id)).live).toEqual(
      h.ctx.live.streamState(h.account.id),
    );
    await h.emit("offline");
    expect(await waitFor(() => h.ctx.live.streamState(h.account.id)?.live === false, 10_000)).toBe(true);
  });

  test("a streamer with chat alone (alerts off) hears it too, on chat's one session", async () => {
    h = await startAlertsHarness();
    await h.startChat();
    expect(await chatConnected()).toBe(true);
    const sessions = openSessions();
    expect(sessions).toHaveLength(1);
    expect(await waitFor(() => typesOn(sessions[0]!.id).length === 3)).toBe(true);
    expect(typesOn(sessions[0]!.id)).toEqual([CHAT_TYPE, ...STREAM_TYPES].sort());
    await h.emit("online");
    expect(await waitFor(() => h.ctx.live.streamState(h.account.id)?.live === true, 10_000)).toBe(true);
  });

  test("a channel read only by a bot account is not heard (no socket is opened for it); timers ask Helix", async () => {
    h = await startAlertsHarness();
    await linkBot();
    await h.startChat({ scopes: ["user:read:email"] });
    expect(await chatConnected()).toBe(true);
    expect(openSessions().map((s) => s.userId)).toEqual([BOT_ID]);
    expect(typesOn(openSessions()[0]!.id)).toEqual([CHAT_TYPE]);
    await h.emit("online");
    await Bun.sleep(200);
    expect(h.ctx.live.streamState(h.account.id)).toBeNull();
  });
});
