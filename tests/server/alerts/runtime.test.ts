/**
 * The alerts runtime through the Twitch simulator: the streamer's EventSub socket, each type's
 * subscription and state, delivery once per event onto the overlays (ctx.alerts), the history, the
 * chat thanks line and the live state. SQLite, or PostgreSQL with CUEBOT_TEST_DATABASE=postgres.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readAlertChannel } from "../../../db/alerts.ts";
import type { AlertType } from "../../../server/alerts/model.ts";
import { StreamWatch } from "../../../server/custom/timer-live.ts";
import { BASE_SCOPES, READ_CHAT_SCOPE } from "../../../server/twitch/scopes.ts";
import { type AlertsHarness, recordOverlay, startAlertsHarness } from "../../helpers/alerts.ts";
import { waitFor } from "../../helpers/chat.ts";

let h: AlertsHarness;
afterEach(async () => {
  await h.stop();
});

async function served(options: Parameters<AlertsHarness["grant"]>[0] = {}) {
  h = await startAlertsHarness();
  await h.grant(options);
  h.serve();
  expect(await h.alertsConnected()).toBe(true);
  return recordOverlay(h.ctx, h.account.id);
}

const storedTypes = async () =>
  (await h.sql("SELECT type FROM alert_events ORDER BY id")).map((r) => (r as { type: string }).type);

/** Each type as the simulator emits it by default, and the text its default template shows. */
const EVERY_TYPE: [AlertType, Record<string, unknown>, RegExp][] = [
  ["follow", { user: "viewer_anna" }, /^Viewer_Anna just followed!$/],
  ["subscribe", { user: "subdave" }, /subscribed!$/],
  ["resub", { user: "subdave", cumulative_months: 7 }, /subscribed for 7 months!$/],
  ["gift", { user: "vipcarla", total: 3 }, /gifted 3 subs!$/],
  ["cheer", { user: "modbob", bits: 500 }, /cheered 500 bits!$/],
  ["raid", { user: "otherstreamer", viewers: 42 }, /^OtherStreamer is raiding with 42 viewers!$/],
  [
    "redemption",
    { user: "lurker_eve", reward: { id: "r1", title: "Kazoo solo", cost: 500, prompt: "" } },
    /redeemed Kazoo solo!$/,
  ],
];

describe("alerts: from a Twitch event to the overlay", () => {
  test("every type subscribes, and each emitted event is stored and shown once within a second", async () => {
    const overlay = await served();
    const subscribed = await (await fetch(`${h.sim.authUrl}/_sim/eventsub/subscriptions`)).json();
    const types = (subscribed as { data: { type: string; status: string }[] }).data
      .filter((s) => s.status === "enabled")
      .map((s) => s.type);
    for (const type of [
      "channel.follow",
      "channel.subscribe",
      "channel.subscription.message",
      "channel.subscription.gift",
      "channel.cheer",
      "channel.raid",
      "channel.channel_points_custom_reward_redemption.add",
      "stream.online",
      "stream.offline",
    ])
      expect(types).toContain(type);
    for (const [index, [type, overrides, text]] of EVERY_TYPE.entries()) {
      const started = performance.now();
      await h.emit(type, overrides);
      expect(await waitFor(() => overlay.alerts.length === index + 1, 1000)).toBe(true);
      expect(performance.now() - started).toBeLessThan(1000);
      const alert = overlay.alerts[index];
      expect(alert?.type).toBe(type);
      expect(alert?.text).toMatch(text);
      expect(alert?.text).not.toContain("undefined");
      expect(alert?.test).toBe(false);
    }
    await Bun.sleep(150);
    expect(overlay.alerts.map((a) => a.type)).toEqual(EVERY_TYPE.map(([type]) => type));
    expect(await storedTypes()).toEqual(EVERY_TYPE.map(([type]) => type));
  }, 20_000);

  test("a gift bomb of 5 is one gift alert, and its 5 gifted subs make none", async () => {
    const overlay = await served();
    const emitted = await h.emit("gift", { user: "vipcarla", total: 5 });
    expect(emitted.notifications.filter((n) => n.type === "channel.subscribe")).toHaveLength(5);
    expect(await waitFor(() => overlay.alerts.length === 1, 10_000)).toBe(true);
    await Bun.sleep(300);
    expect(overlay.alerts.map((a) => [a.type, a.fields.amount])).toEqual([["gift", 5]]);
    expect(await storedTypes()).toEqual(["gift"]);
  });

  test("an anonymous gift and cheer name Anonymous, never undefined or null", async () => {
    const overlay = await served();
    await h.emit("gift", { total: 2, anonymous: true });
    await h.emit("cheer", { bits: 100, anonymous: true, message: "" });
    expect(await waitFor(() => overlay.alerts.length === 2, 10_000)).toBe(true);
    for (const alert of overlay.alerts) {
      expect(alert.fields.user).toBe("Anonymous");
      expect(alert.text).toStartWith("Anonymous ");
      expect(alert.text).not.toMatch(/undefined|null/);
    }
  });

  test("a redelivery (the same message id) shows once", async () => {
    const overlay = await served();
    await h.emit("follow", { user: "viewer_anna", redeliver: true });
    expect(await waitFor(() => overlay.alerts.length === 1, 10_000)).toBe(true);
    const again = await h.control("redeliver", {});
    expect(((await again.json()) as { redelivered: number }).redelivered).toBeGreaterThan(0);
    await Bun.sleep(300);
    expect(overlay.alerts).toHaveLength(1);
    expect(await storedTypes()).toEqual(["follow"]);
  });

  test("a raid from the streamer to another channel is no alert; a raid into the channel is", async () => {
    const overlay = await served();
    await h.control("emit", { type: "raid", broadcaster_user_id: "100002", user: "cuebotdemo", viewers: 9 });
    await h.emit("raid", { user: "otherstreamer", viewers: 3 });
    expect(await waitFor(() => overlay.alerts.length === 1, 10_000)).toBe(true);
    await Bun.sleep(200);
    expect(overlay.alerts.map((a) => a.fields.user)).toEqual(["OtherStreamer"]);
  });

  test("below the type's minimum an event is stored in the history but not shown", async () => {
    h = await startAlertsHarness();
    await h.grant();
    await h.settings("cheer", { minAmount: 500 });
    h.serve();
    expect(await h.alertsConnected()).toBe(true);
    const overlay = recordOverlay(h.ctx, h.account.id);
    await h.emit("cheer", { bits: 100 });
    await h.emit("cheer", { bits: 500 });
    expect(await waitFor(() => overlay.alerts.length === 1, 10_000)).toBe(true);
    await Bun.sleep(200);
    expect(overlay.alerts.map((a) => a.fields.amount)).toEqual([500]);
    expect(await storedTypes()).toEqual(["cheer", "cheer"]);
  });

  test("a type turned off shows and stores nothing; the others still show", async () => {
    h = await startAlertsHarness();
    await h.grant();
    await h.settings("follow", { enabled: false });
    h.serve();
    expect(await h.alertsConnected()).toBe(true);
    const overlay = recordOverlay(h.ctx, h.account.id);
    await h.emit("follow");
    await h.emit("raid", { viewers: 5 });
    expect(await waitFor(() => overlay.alerts.length === 1, 10_000)).toBe(true);
    await Bun.sleep(200);
    expect(overlay.alerts.map((a) => a.type)).toEqual(["raid"]);
    expect(await storedTypes()).toEqual(["raid"]);
  });
});

describe("alerts: states as the dashboard sees them", () => {
  test("without bits:read, cheers need consent and the other types are connected", async () => {
    await served({ scopes: [...BASE_SCOPES, READ_CHAT_SCOPE, "channel:read:redemptions"] });
    const status = await h.ctx.alertsStatus.status(h.account.id);
    expect(status.state).toBe("connected");
    expect(status.missingScopes).toEqual(["bits:read"]);
    for (const { type, state, reason } of status.types) {
      if (type === "cheer") {
        expect(state).toBe("needs_consent");
        expect(reason).toContain("bits:read");
      } else expect([type, state]).toEqual([type, "connected"]);
    }
    const subscribed = (await (await fetch(`${h.sim.authUrl}/_sim/eventsub/subscriptions`)).json()) as {
      data: { type: string }[];
    };
    expect(subscribed.data.map((s) => s.type)).not.toContain("channel.cheer");
  });

  test("a revoked type needs consent; the others keep working", async () => {
    const overlay = await served();
    const res = await h.control("revoke", {
      user_id: "100001",
      type: "channel.cheer",
      reason: "authorization_revoked",
    });
    expect(res.status).toBe(200);
    const cheer = async () =>
      (await h.ctx.alertsStatus.status(h.account.id)).types.find((t) => t.type === "cheer");
    expect(await waitFor(async () => (await cheer())?.state === "needs_consent", 10_000)).toBe(true);
    expect((await cheer())?.reason).toContain("revoked");
    const status = await h.ctx.alertsStatus.status(h.account.id);
    expect(status.state).toBe("connected");
    await h.emit("follow");
    expect(await waitFor(() => overlay.alerts.length === 1, 10_000)).toBe(true);
  });

  test("turned off, or the server closing, leaves the stored state off", async () => {
    await served();
    expect((await readAlertChannel(h.ctx.db, h.account.id))?.state).toBe("connected");
    await h.ctx.close();
    expect(await h.sql("SELECT state, reason FROM alert_channels")).toEqual([
      { state: "off", reason: "cuebot is not running" },
    ]);
  });

  test("stream.online and stream.offline set the live state the timers and the dashboard read", async () => {
    await served();
    expect(h.ctx.live.streamState(h.account.id)).toBeNull();
    await h.emit("online");
    expect(await waitFor(() => h.ctx.live.streamState(h.account.id)?.live === true, 10_000)).toBe(true);
    expect((await h.ctx.alertsStatus.status(h.account.id)).live?.live).toBe(true);
    await h.emit("offline");
    expect(await waitFor(() => h.ctx.live.streamState(h.account.id)?.live === false, 10_000)).toBe(true);
  });

  test("timers believe stream.offline without asking Twitch, and stream.online with Helix's category", async () => {
    await served();
    const watch = new StreamWatch(h.ctx, h.ctx.clock);
    const askedTwitch = () =>
      [...h.sim.calls].filter(([key]) => key.endsWith("/streams")).reduce((n, [, count]) => n + count, 0);
    await h.emit("offline");
    expect(await waitFor(() => h.ctx.live.streamState(h.account.id)?.live === false, 10_000)).toBe(true);
    const before = askedTwitch();
    // The simulated Helix says the channel is live: the event wins, and Twitch is not asked.
    expect((await watch.status(h.account)).startedAt).toBeNull();
    expect(askedTwitch()).toBe(before);
    await h.emit("online");
    expect(await waitFor(() => h.ctx.live.streamState(h.account.id)?.live === true, 10_000)).toBe(true);
    const live = await watch.status(h.account);
    expect(live.startedAt).not.toBeNull();
    expect(live.game).toBe("Just Chatting");
  });
});

describe("alerts: the chat thanks line", () => {
  test("is sent through native chat, names the viewer, and never repeats the viewer's message", async () => {
    h = await startAlertsHarness();
    await h.grant({ chat: true });
    await h.settings("cheer", { chatMessage: "Thanks for the {amount} bits, {user}!" });
    await h.settings("resub", { chatMessage: "Welcome back {user} ({months} months)" });
    h.serve();
    expect(await h.alertsConnected()).toBe(true);
    expect(
      await waitFor(async () => (await h.ctx.chat.status(h.account.id)).state === "connected", 5000),
    ).toBe(true);
    await h.emit("cheer", { user: "modbob", bits: 250, message: "Cheer250 /ban everyone SECRET" });
    await h.emit("resub", { user: "subdave", cumulative_months: 3, message: "SECRET resub text" });
    const lines = () => h.sim.chat.sent().filter((s) => s.isSent && s.replyParentMessageId === null);
    expect(await waitFor(() => lines().length === 2, 10_000)).toBe(true);
    const texts = lines().map((s) => s.text);
    expect(texts).toContain("Thanks for the 250 bits, ModBob!");
    expect(texts.some((t) => t.startsWith("Welcome back"))).toBe(true);
    for (const text of texts) expect(text).not.toContain("SECRET");
  });

  test("odd names and huge messages: a sensible alert, and a thanks line without a name that is no login", async () => {
    h = await startAlertsHarness();
    await h.grant({ chat: true });
    await h.settings("cheer", { chatMessage: "Thanks {user} for {amount} bits!" });
    h.serve();
    expect(await h.alertsConnected()).toBe(true);
    expect(
      await waitFor(async () => (await h.ctx.chat.status(h.account.id)).state === "connected", 5000),
    ).toBe(true);
    const overlay = recordOverlay(h.ctx, h.account.id);
    const odd = "\u202e/ban 💣\u0007 Ζ̸̢ä̷lgo";
    await h.emit("cheer", {
      user: "modbob",
      user_name: odd,
      bits: 7,
      message: `${"x".repeat(9_000)}\n\u0000end`,
    });
    expect(await waitFor(() => overlay.alerts.length === 1, 10_000)).toBe(true);
    const alert = overlay.alerts[0];
    expect(alert?.text).not.toMatch(/undefined|null/);
    expect(alert?.text).toContain("cheered 7 bits!");
    expect([...(alert?.fields.message ?? "")].length).toBeLessThanOrEqual(500);
    expect(alert?.fields.message).not.toContain("\n");
    const lines = () => h.sim.chat.sent().filter((x) => x.isSent && x.replyParentMessageId === null);
    expect(await waitFor(() => lines().length === 1, 10_000)).toBe(true);
    const line = lines()[0]?.text ?? "";
    expect(line).toContain("7 bits");
    expect(line).not.toContain("/ban");
    expect(line).not.toContain("💣");
    expect(line).not.toContain("xxx");
  });

  test("a thanks line whose template opens with a command behind invisible characters is said without them", async () => {
    h = await startAlertsHarness();
    await h.grant({ chat: true });
    await h.settings("raid", { chatMessage: "\u200b\u2800!so {user}, thanks for the raid" });
    h.serve();
    expect(await h.alertsConnected()).toBe(true);
    expect(
      await waitFor(async () => (await h.ctx.chat.status(h.account.id)).state === "connected", 5000),
    ).toBe(true);
    await h.emit("raid", { user: "otherstreamer", viewers: 42 });
    const lines = () => h.sim.chat.sent().filter((x) => x.isSent && x.replyParentMessageId === null);
    expect(await waitFor(() => lines().length === 1, 10_000)).toBe(true);
    expect(lines()[0]?.text).toBe("so OtherStreamer, thanks for the raid");
  });

  test("a type without a chat message, or chat off, sends nothing", async () => {
    const overlay = await served();
    await h.settings("follow", { chatMessage: "Thanks {user}!" });
    await h.emit("follow");
    await h.emit("raid");
    expect(await waitFor(() => overlay.alerts.length === 2, 10_000)).toBe(true);
    await Bun.sleep(200);
    expect(h.sim.chat.sent()).toEqual([]);
  });
});
