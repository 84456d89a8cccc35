/**
 * Delivering one notification (server/alerts/deliver.ts) on a real context and store, without a
 * socket: what is dropped, what is kept, what is shown, and nothing ever thrown by odd frames.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { writeAlertSettings } from "../../../db/alerts.ts";
import {
  deliverAlert,
  type NotificationTarget,
  onAlertNotification,
} from "../../../server/alerts/deliver.ts";
import { AlertFloodGuard } from "../../../server/alerts/flood.ts";
import type { AlertNotification } from "../../../server/alerts/readers.ts";
import { type OverlayRecorder, recordOverlay } from "../../helpers/alerts.ts";
import { createTestAccount, createTestContext, type TestContext } from "../../helpers/context.ts";

const STREAMER = "424242";
let t: TestContext;
let accountId: number;
let overlay: OverlayRecorder;
let flood: AlertFloodGuard;

beforeEach(async () => {
  t = await createTestContext();
  ({
    account: { id: accountId },
  } = await createTestAccount(t.ctx, { twitchUserId: STREAMER }));
  overlay = recordOverlay(t.ctx, accountId);
  flood = new AlertFloodGuard();
});
afterEach(async () => {
  overlay.stop();
  await t.cleanup();
});

const target = (): NotificationTarget => ({
  accountId,
  broadcasterId: STREAMER,
  flood,
});

let nextId = 0;
function frame(subscriptionType: string, raw: unknown, id = `m${nextId++}`): AlertNotification {
  const at = t.ctx.clock.now();
  return { type: "notification", id, at, subscriptionType, broadcasterId: STREAMER, event: null, raw };
}

const follow = (name: unknown) => ({
  user_id: "9",
  user_login: "mossy_owl",
  user_name: name,
  broadcaster_user_id: STREAMER,
  followed_at: "2026-03-14T19:02:11.171067130Z",
});

const rows = async () => t.sql("SELECT type, event_key, test FROM alert_events ORDER BY id");

describe("one notification, delivered", () => {
  test("odd frames are dropped quietly: no alert, nothing stored", async () => {
    const odd: [string, unknown][] = [
      ["channel.follow", null],
      ["channel.follow", "a string"],
      ["channel.follow", []],
      ["channel.follow", { ...follow("X"), broadcaster_user_id: "someone-else" }],
      ["channel.unknown_type", follow("X")],
      ["", {}],
      ["channel.subscribe", { ...follow("X"), tier: "1000", is_gift: true }],
    ];
    for (const [type, raw] of odd)
      expect(await onAlertNotification(t.ctx, target(), frame(type, raw))).toBeNull();
    expect(await rows()).toEqual([]);
    expect(overlay.alerts).toEqual([]);
  });

  test("a follow is stored under its message id and shown; the same id again is not", async () => {
    const first = frame("channel.follow", follow("Mossy_Owl"), "msg-1");
    expect(await onAlertNotification(t.ctx, target(), first)).toMatchObject({ outcome: "shown" });
    expect(await onAlertNotification(t.ctx, target(), first)).toEqual({ outcome: "duplicate" });
    expect(overlay.alerts.map((a) => a.text)).toEqual(["Mossy_Owl just followed!"]);
    expect(await rows()).toEqual([{ type: "follow", event_key: "msg-1", test: expect.anything() }]);
  });

  test("another instance's copy (same key, not seen here) is a duplicate, shown once", async () => {
    const raw = follow("Mossy_Owl");
    await onAlertNotification(t.ctx, target(), frame("channel.follow", raw, "shared"));
    expect(await onAlertNotification(t.ctx, target(), frame("channel.follow", raw, "shared"))).toEqual({
      outcome: "duplicate",
    });
    expect(overlay.alerts).toHaveLength(1);
  });

  test("a redemption is keyed by its own id, so a new message id for it is still one alert", async () => {
    const raw = {
      ...follow("Mossy_Owl"),
      id: "red-1",
      user_input: "",
      status: "unfulfilled",
      reward: { id: "r", title: "Kazoo solo", cost: 5, prompt: "" },
    };
    const type = "channel.channel_points_custom_reward_redemption.add";
    await onAlertNotification(t.ctx, target(), frame(type, raw));
    await onAlertNotification(t.ctx, target(), frame(type, raw));
    expect(overlay.alerts.map((a) => a.text)).toEqual(["Mossy_Owl redeemed Kazoo solo!"]);
  });

  test("stream.online and stream.offline make no alert (the live layer hears them)", async () => {
    const online = {
      broadcaster_user_id: STREAMER,
      id: "1",
      type: "live",
      started_at: "2026-03-14T18:00:05Z",
    };
    expect(await onAlertNotification(t.ctx, target(), frame("stream.online", online))).toBeNull();
    expect(await onAlertNotification(t.ctx, target(), frame("stream.offline", online))).toBeNull();
    expect(await rows()).toEqual([]);
  });
});

describe("deliverAlert", () => {
  const cheer = (bits: number) => ({
    user: "Mossy_Owl",
    amount: bits,
    months: null,
    tier: null,
    reward: null,
    message: null,
  });

  test("a type turned off: nothing; below the minimum: stored, not shown", async () => {
    await writeAlertSettings(t.ctx.db, accountId, "cheer", { enabled: false }, 0);
    const base = { accountId, type: "cheer" as const, test: false, at: t.ctx.clock.now() };
    expect(await deliverAlert(t.ctx, { ...base, fields: cheer(5), eventKey: "a" })).toEqual({
      outcome: "off",
    });
    await writeAlertSettings(t.ctx.db, accountId, "cheer", { enabled: true, minAmount: 100 }, 0);
    expect(await deliverAlert(t.ctx, { ...base, fields: cheer(5), eventKey: "b" })).toMatchObject({
      outcome: "stored",
    });
    expect(await deliverAlert(t.ctx, { ...base, fields: cheer(100), eventKey: "c" })).toMatchObject({
      outcome: "shown",
    });
    expect(overlay.alerts.map((a) => a.fields.amount)).toEqual([100]);
    expect((await rows()).map((r) => r.event_key)).toEqual(["b", "c"]);
  });

  test("a test alert shows even when its type is off, and sends no chat line", async () => {
    await writeAlertSettings(
      t.ctx.db,
      accountId,
      "cheer",
      { enabled: false, chatMessage: "Thanks {user}" },
      0,
    );
    const delivered = await deliverAlert(t.ctx, {
      accountId,
      type: "cheer",
      fields: cheer(5),
      eventKey: "test:1",
      test: true,
      at: t.ctx.clock.now(),
    });
    expect(delivered).toMatchObject({ outcome: "shown", chatLine: null });
    expect(overlay.alerts.map((a) => a.test)).toEqual([true]);
  });
});
