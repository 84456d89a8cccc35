import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { SIM_IDS } from "../../../../server/sim/twitch/world.ts";
import { waitFor } from "../../../helpers/chat.ts";
import { type AlertHarness, alertHarness, type Frame } from "./eventsub-alert-helpers.ts";

/**
 * `POST /_sim/eventsub/emit`, `redeliver` and the per-type `revoke` over real sockets: each event
 * reaches every matching subscription once, a gift bomb is one gift and N is_gift subscribes,
 * a redelivery keeps its message id, a revoked type stops alone, and bad bodies are refused by name.
 */

let h: AlertHarness;
beforeEach(() => {
  h = alertHarness();
});
afterEach(() => h.stop());

const me = { broadcaster_user_id: SIM_IDS.demo };

interface Emitted {
  delivered: number;
  notifications: { type: string; event: Record<string, unknown>; message_ids: string[] }[];
}

const emit = (body: object) => h.control<Emitted>("emit", { broadcaster_user_id: SIM_IDS.demo, ...body });
/** An emit expected to be refused: its status and error. */
const refused = (body: object) =>
  h.control<{ error: string }>("emit", { broadcaster_user_id: SIM_IDS.demo, ...body });

/** A socket of cuebotdemo's subscribed to `types` (all for cuebotdemo's channel). */
async function listening(types: string[]) {
  const socket = await h.connect();
  const token = h.token("cuebotdemo");
  for (const type of types) {
    const condition =
      type === "channel.follow"
        ? { ...me, moderator_user_id: SIM_IDS.demo }
        : type === "channel.raid"
          ? { to_broadcaster_user_id: SIM_IDS.demo }
          : me;
    expect((await h.subscribe(token, socket.sessionId, type, condition)).status).toBe(202);
  }
  return socket;
}

const events = (frames: Frame[], type: string) =>
  frames
    .filter((f) => f.metadata.subscription_type === type)
    .map((f) => f.payload.event as Record<string, unknown>);

describe("emit", () => {
  test("each alert name reaches its subscription once, with the documented metadata", async () => {
    const names: [name: string, type: string, field: string, value: unknown][] = [
      ["follow", "channel.follow", "user_name", "Viewer_Anna"],
      ["subscribe", "channel.subscribe", "is_gift", false],
      ["resub", "channel.subscription.message", "cumulative_months", 14],
      ["cheer", "channel.cheer", "bits", 100],
      ["raid", "channel.raid", "from_broadcaster_user_login", "otherstreamer"],
      ["redemption", "channel.channel_points_custom_reward_redemption.add", "user_input", ""],
      ["online", "stream.online", "type", "live"],
      ["offline", "stream.offline", "broadcaster_user_login", "cuebotdemo"],
    ];
    const socket = await listening(names.map(([, type]) => type));
    for (const [name, type, field, value] of names) {
      const { body } = await emit({ type: name });
      expect(body.delivered).toBe(1);
      const frame = await waitFor(() =>
        socket.notifications().find((f) => f.metadata.subscription_type === type),
      );
      expect(frame?.metadata).toMatchObject({
        message_type: "notification",
        subscription_version: type === "channel.follow" ? "2" : "1",
      });
      expect(frame?.metadata.message_id).toBe(body.notifications[0]?.message_ids[0] as string);
      expect(frame?.payload.subscription).toMatchObject({ type, status: "enabled" });
      expect(frame?.payload.event?.[field]).toEqual(value);
    }
    expect(socket.notifications()).toHaveLength(names.length);
  });

  test("the EventSub type works as the name; every subscription of it gets one frame; other channels none", async () => {
    const first = await listening(["channel.follow"]);
    const mod = await h.connect();
    const condition = { ...me, moderator_user_id: SIM_IDS.bob };
    expect((await h.subscribe(h.token("modbob"), mod.sessionId, "channel.follow", condition)).status).toBe(
      202,
    );
    const other = await h.connect();
    const otherCondition = { broadcaster_user_id: SIM_IDS.other, moderator_user_id: SIM_IDS.other };
    await h.subscribe(h.token("otherstreamer"), other.sessionId, "channel.follow", otherCondition);
    const { body } = await emit({ type: "channel.follow", user: "SubDave" });
    expect(body.delivered).toBe(2);
    await waitFor(() => first.notifications().length === 1 && mod.notifications().length === 1);
    await Bun.sleep(50);
    for (const s of [first, mod])
      expect(events(s.frames, "channel.follow").map((e) => e.user_name)).toEqual(["SubDave"]);
    expect(other.notifications()).toEqual([]);
    expect((await emit({ type: "follow", broadcaster_user_id: SIM_IDS.carla })).body.delivered).toBe(0);
  });

  test("a raid goes to the raided channel's to-subscription and the raider's from-subscription", async () => {
    const raided = await listening(["channel.raid"]);
    const raider = await h.connect();
    await h.subscribe(h.token("otherstreamer", []), raider.sessionId, "channel.raid", {
      from_broadcaster_user_id: SIM_IDS.other,
    });
    expect((await emit({ type: "raid", user: "otherstreamer", viewers: 42 })).body.delivered).toBe(2);
    const seen = await waitFor(() => raider.notifications()[0]);
    expect(seen?.payload.event).toMatchObject({ from_broadcaster_user_id: SIM_IDS.other, viewers: 42 });
    expect(events(raided.frames, "channel.raid")).toHaveLength(1);
  });

  test("a redemption reaches a reward_id subscription only for that reward", async () => {
    const socket = await h.connect();
    const type = "channel.channel_points_custom_reward_redemption.add";
    await h.subscribe(h.token("cuebotdemo"), socket.sessionId, type, { ...me, reward_id: "hydrate" });
    expect((await emit({ type: "redemption" })).body.delivered).toBe(0);
    const reward = { id: "hydrate", title: "Hydrate!", cost: 50, prompt: "" };
    expect((await emit({ type: "redemption", reward, user_input: "💧" })).body.delivered).toBe(1);
    const event = (await waitFor(() => socket.notifications()[0]))?.payload.event;
    expect(event).toMatchObject({ reward, user_input: "💧", user_login: "lurker_eve" });
  });
});

describe("gift bombs", () => {
  test("a gift of 5: one channel.subscription.gift (total 5), then 5 is_gift subscribes to distinct recipients", async () => {
    const socket = await listening(["channel.subscription.gift", "channel.subscribe"]);
    const { body } = await emit({ type: "gift", user: "vipcarla", total: 5, tier: "2000" });
    expect(body.notifications.map((n) => n.type)).toEqual([
      "channel.subscription.gift",
      ...Array(5).fill("channel.subscribe"),
    ]);
    expect(body.delivered).toBe(6);
    await waitFor(() => socket.notifications().length === 6);
    expect(socket.notifications()[0]?.metadata.subscription_type).toBe("channel.subscription.gift");
    expect(events(socket.frames, "channel.subscription.gift")).toEqual([
      expect.objectContaining({ user_login: "vipcarla", total: 5, tier: "2000", is_anonymous: false }),
    ]);
    const recipients = events(socket.frames, "channel.subscribe");
    expect(recipients.every((e) => e.is_gift === true && e.tier === "2000")).toBe(true);
    const ids = recipients.map((e) => e.user_id);
    expect(new Set(ids).size).toBe(5);
    expect(ids).not.toContain(SIM_IDS.carla);
    expect(ids).not.toContain(SIM_IDS.demo);
  });

  test("100 gifts have 100 distinct recipients (generated past the world's users); 0 and 101 are refused", async () => {
    const { body } = await emit({ type: "gift", total: 100, anonymous: true });
    const recipients = body.notifications.slice(1).map((n) => n.event.user_login);
    expect(new Set(recipients).size).toBe(100);
    expect(recipients).toContain("giftee100");
    expect(body.notifications[0]?.event).toMatchObject({
      user_id: null,
      cumulative_total: null,
      is_anonymous: true,
    });
    for (const total of [0, 101, 2.5, "5"]) {
      expect(await refused({ type: "gift", total })).toEqual({
        status: 400,
        body: { error: "total is not valid" },
      });
    }
  });
});

describe("redelivery and revocation", () => {
  test("redeliver sends the last emit again with the same message ids; emit with redeliver sends it twice", async () => {
    const socket = await listening(["channel.follow"]);
    const { body } = await emit({ type: "follow" });
    const id = body.notifications[0]?.message_ids[0];
    expect((await h.control("redeliver", {})).body).toEqual({ redelivered: 1 });
    await waitFor(() => socket.notifications().length === 2);
    expect(socket.notifications().map((f) => f.metadata.message_id)).toEqual([id, id]);
    expect(socket.notifications()[1]?.payload.event).toEqual(
      socket.notifications()[0]?.payload.event as Record<string, unknown>,
    );
    const twice = await emit({ type: "follow", user: "subdave", redeliver: true });
    const again = twice.body.notifications[0]?.message_ids[0];
    await waitFor(() => socket.notifications().length === 4);
    expect(
      socket
        .notifications()
        .map((f) => f.metadata.message_id)
        .slice(2),
    ).toEqual([again, again]);
    expect((await h.control("redeliver", { message_id: id })).body).toEqual({ redelivered: 1 });
    expect((await h.control("redeliver", { message_id: "nope" })).body).toEqual({ redelivered: 0 });
  });

  test("revoking one type sends its revocation alone; the other types and the token keep working", async () => {
    const socket = await listening([
      "channel.cheer",
      "channel.follow",
      "channel.channel_points_custom_reward_redemption.add",
    ]);
    const revoked = await h.control("revoke", {
      user_id: SIM_IDS.demo,
      type: "channel.cheer",
      reason: "user_removed",
    });
    expect(revoked.body).toEqual({ revoked: 1 });
    const revocation = await waitFor(() =>
      socket.frames.find((f) => f.metadata.message_type === "revocation"),
    );
    expect(revocation?.metadata.subscription_type).toBe("channel.cheer");
    expect(revocation?.payload.subscription).toMatchObject({ type: "channel.cheer", status: "user_removed" });
    expect((await emit({ type: "cheer" })).body.delivered).toBe(0);
    expect((await emit({ type: "follow" })).body.delivered).toBe(1);
    const auth = await h.control("revoke", {
      user_id: SIM_IDS.demo,
      type: "channel.channel_points_custom_reward_redemption.add",
      reason: "authorization_revoked",
    });
    expect(auth.body).toEqual({ revoked: 1 });
    // The streamer's token still works: a new subscription of the revoked type is accepted again.
    const again = await h.subscribe(h.token("cuebotdemo"), socket.sessionId, "channel.cheer", me);
    expect(again.status).toBe(202);
    expect(
      h.sim.chat
        .subscriptions()
        .filter((s) => s.status === "enabled")
        .map((s) => s.type)
        .sort(),
    ).toEqual(["channel.cheer", "channel.follow"]);
    const bad = await h.control("revoke", { user_id: SIM_IDS.demo, type: "channel.follow", reason: "bored" });
    expect(bad.status).toBe(400);
    expect(
      (
        await h.control("revoke", {
          user_id: SIM_IDS.demo,
          type: "channel.follow",
          reason: "version_removed",
        })
      ).body,
    ).toEqual({
      revoked: 1,
    });
  });
});

describe("bad emit bodies are refused by name, nothing sent", () => {
  test.each([
    [
      { type: "host" },
      "type must be one of follow, subscribe, resub, gift, cheer, raid, redemption, online, offline or their EventSub types",
    ],
    [
      { type: "__proto__" },
      "type must be one of follow, subscribe, resub, gift, cheer, raid, redemption, online, offline or their EventSub types",
    ],
    [{ type: "cheer", broadcaster_user_id: "" }, "broadcaster_user_id is required"],
    [{ type: "cheer", broadcaster_user_id: "424242" }, "broadcaster_user_id is not a user"],
    [{ type: "cheer", user: "nobody_here" }, "user is not a user's login"],
    [{ type: "cheer", bits: "100" }, "bits is not valid"],
    [{ type: "cheer", bits: -5 }, "bits is not valid"],
    [{ type: "follow", bits: 100 }, "bits is not an override of channel.follow"],
    [{ type: "cheer", constructor: 1 }, "constructor is not an override of channel.cheer"],
    [{ type: "cheer", user_name: "x".repeat(10_001) }, "user_name is not valid"],
    [{ type: "resub", emotes: [] }, "emotes is not valid"],
    [{ type: "resub", streak_months: -1 }, "streak_months is not valid"],
    [{ type: "redemption", reward: { title: "x", color: "red" } }, "reward is not valid"],
    [{ type: "redemption", reward: { cost: 0 } }, "reward is not valid"],
    [{ type: "subscribe", tier: "Prime" }, "tier is not valid"],
    [{ type: "cheer", redeliver: "yes" }, "redeliver must be a boolean"],
  ])("%j", async (body, error) => {
    const socket = await listening(["channel.cheer"]);
    expect(await refused(body)).toEqual({ status: 400, body: { error } });
    await Bun.sleep(20);
    expect(socket.notifications()).toEqual([]);
  });

  test("a huge or odd display name is carried verbatim; a body that is not JSON is 400, not JSON-typed 415", async () => {
    const socket = await listening(["channel.cheer"]);
    const name = `\u202E${"𝕏".repeat(3000)}\u200D👩‍👩‍👧`;
    expect((await emit({ type: "cheer", user: "데모시청자", user_name: name })).body.delivered).toBe(1);
    const event = (await waitFor(() => socket.notifications()[0]))?.payload.event;
    expect(event).toMatchObject({ user_name: name, user_login: "데모시청자" });
    const url = `${h.sim.authUrl}/_sim/eventsub/emit`;
    const notJson = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{",
    });
    expect(notJson.status).toBe(400);
    const plain = await fetch(url, { method: "POST", headers: { "Content-Type": "text/plain" }, body: "{}" });
    expect(plain.status).toBe(415);
  });
});
