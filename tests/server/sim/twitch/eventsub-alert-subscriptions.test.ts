import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { SIM_IDS } from "../../../../server/sim/twitch/world.ts";
import { callHelix } from "../../../helpers/helix.ts";
import { type AlertHarness, alertHarness } from "./eventsub-alert-helpers.ts";

/**
 * Create EventSub Subscription for the alert types (Twitch's "EventSub subscription types" page;
 * reference/alerts.md §0–§1): each accepted with its scope for the broadcaster's own token at cost 0,
 * refused as Twitch refuses (400 type, version or condition; 403 scope or authorization; 409; 429).
 */

let h: AlertHarness;
beforeEach(() => {
  h = alertHarness();
});
afterEach(() => h.stop());

const me = { broadcaster_user_id: SIM_IDS.demo };

/** Each scoped type with the scope it needs. */
const SCOPED: [type: string, scope: string][] = [
  ["channel.subscribe", "channel:read:subscriptions"],
  ["channel.subscription.message", "channel:read:subscriptions"],
  ["channel.subscription.gift", "channel:read:subscriptions"],
  ["channel.cheer", "bits:read"],
  ["channel.channel_points_custom_reward_redemption.add", "channel:read:redemptions"],
];

describe("the alert types on the subscription API", () => {
  test.each(SCOPED)(
    "%s: 202 at cost 0 with %s; 403 without it; 403 for another channel",
    async (type, scope) => {
      const { sessionId } = await h.connect();
      const other = await h.connect();
      const noScope = h.token("cuebotdemo", ["user:read:chat"]);
      expect(await h.subscribe(noScope, sessionId, type, me)).toMatchObject({
        status: 403,
        body: { message: "subscription missing proper authorization" },
      });
      const owner = h.token("cuebotdemo", [scope]);
      const ok = await h.subscribe(owner, sessionId, type, me);
      expect(ok.status).toBe(202);
      expect(ok.body.data[0]).toMatchObject({
        cost: 0,
        condition: me,
        type,
        version: "1",
        status: "enabled",
      });
      expect(ok.body.total_cost).toBe(0);
      expect((await h.subscribe(owner, sessionId, type, me)).status).toBe(409);
      // Another user's token may not read the streamer's subs, bits or redemptions, even with the scope.
      const viewer = h.token("viewer_anna", [scope]);
      expect((await h.subscribe(viewer, other.sessionId, type, me)).status).toBe(403);
    },
  );

  test("channel.follow v2: the broadcaster or one of their moderators, as moderator_user_id, with moderator:read:followers", async () => {
    const owner = await h.connect();
    const mod = await h.connect();
    const anna = await h.connect();
    const demo = h.token("cuebotdemo");
    const both = { broadcaster_user_id: SIM_IDS.demo, moderator_user_id: SIM_IDS.demo };
    expect((await h.subscribe(demo, owner.sessionId, "channel.follow", both, "1")).status).toBe(400);
    expect((await h.subscribe(demo, owner.sessionId, "channel.follow", me)).status).toBe(400);
    expect(
      (await h.subscribe(h.token("cuebotdemo", ["bits:read"]), owner.sessionId, "channel.follow", both))
        .status,
    ).toBe(403);
    expect((await h.subscribe(demo, owner.sessionId, "channel.follow", both)).body.data[0]?.cost).toBe(0);
    const asBob = { broadcaster_user_id: SIM_IDS.demo, moderator_user_id: SIM_IDS.bob };
    // modbob moderates cuebotdemo; the moderator must be the token's user.
    expect((await h.subscribe(demo, owner.sessionId, "channel.follow", asBob)).status).toBe(403);
    expect((await h.subscribe(h.token("modbob"), mod.sessionId, "channel.follow", asBob)).status).toBe(202);
    const asAnna = { broadcaster_user_id: SIM_IDS.demo, moderator_user_id: SIM_IDS.anna };
    expect((await h.subscribe(h.token("viewer_anna"), anna.sessionId, "channel.follow", asAnna)).status).toBe(
      403,
    );
  });

  test("channel.raid: exactly one of from/to, no scope; free for the channel itself, cost 1 for another", async () => {
    const { sessionId } = await h.connect();
    const demo = h.token("cuebotdemo", []);
    const to = { to_broadcaster_user_id: SIM_IDS.demo };
    expect((await h.subscribe(demo, sessionId, "channel.raid", {})).status).toBe(400);
    const both = { ...to, from_broadcaster_user_id: SIM_IDS.other };
    expect((await h.subscribe(demo, sessionId, "channel.raid", both)).status).toBe(400);
    expect((await h.subscribe(demo, sessionId, "channel.raid", { to_broadcaster_user_id: "" })).status).toBe(
      400,
    );
    expect((await h.subscribe(demo, sessionId, "channel.raid", to)).body.data[0]?.cost).toBe(0);
    const from = await h.subscribe(demo, sessionId, "channel.raid", {
      from_broadcaster_user_id: SIM_IDS.demo,
    });
    expect(from.body.data[0]?.cost).toBe(0);
    const elsewhere = await h.subscribe(demo, sessionId, "channel.raid", {
      to_broadcaster_user_id: SIM_IDS.other,
    });
    expect(elsewhere).toMatchObject({ status: 202, body: { total_cost: 1 } });
    expect(
      (await h.subscribe(demo, sessionId, "channel.raid", { to_broadcaster_user_id: "999999999" })).status,
    ).toBe(400);
  });

  test("stream.online/offline need no scope; another channel's cost 1 each, refused past max_total_cost 10 (429)", async () => {
    const { sessionId } = await h.connect();
    const anna = h.token("viewer_anna", []);
    expect(
      (await h.subscribe(anna, sessionId, "stream.offline", { broadcaster_user_id: SIM_IDS.anna })).body,
    ).toMatchObject({
      data: [{ cost: 0 }],
      total_cost: 0,
    });
    const channels = h.sim.world.users.map((u) => u.id).filter((id) => id !== SIM_IDS.anna);
    for (const id of channels.slice(0, 10)) {
      expect((await h.subscribe(anna, sessionId, "stream.online", { broadcaster_user_id: id })).status).toBe(
        202,
      );
    }
    const over = await h.subscribe(anna, sessionId, "stream.online", { broadcaster_user_id: channels[10] });
    expect(over.status).toBe(429);
    expect(
      (await h.subscribe(anna, sessionId, "stream.online", { broadcaster_user_id: SIM_IDS.anna })).status,
    ).toBe(202);
  });

  test("redemptions: channel:manage:redemptions is enough; reward_id is optional; other condition keys are refused", async () => {
    const { sessionId } = await h.connect();
    const type = "channel.channel_points_custom_reward_redemption.add";
    const manage = h.token("cuebotdemo", ["channel:manage:redemptions"]);
    expect((await h.subscribe(manage, sessionId, type, me)).status).toBe(202);
    const oneReward = { ...me, reward_id: "92af127c-7326-4483-a52b-b0da0be61c01" };
    expect((await h.subscribe(manage, sessionId, type, oneReward)).body.data[0]?.condition).toEqual(
      oneReward,
    );
    expect((await h.subscribe(manage, sessionId, type, { ...me, user_id: SIM_IDS.demo })).status).toBe(400);
    expect((await h.subscribe(manage, sessionId, type, { broadcaster_user_id: 41245072 })).status).toBe(400);
    expect((await h.subscribe(manage, sessionId, "channel.cheer.v2", me)).status).toBe(400);
  });

  test("the subscriptions list answers every type with its cost and total_cost", async () => {
    const { sessionId } = await h.connect();
    const demo = h.token("cuebotdemo");
    await h.subscribe(demo, sessionId, "channel.cheer", me);
    await h.subscribe(demo, sessionId, "stream.online", { broadcaster_user_id: SIM_IDS.other });
    const list = await callHelix<{
      data: { type: string; cost: number }[];
      total: number;
      total_cost: number;
    }>(h.sim, demo, "GET", "/eventsub/subscriptions");
    expect(list.body.data.map((s) => [s.type, s.cost])).toEqual([
      ["channel.cheer", 0],
      ["stream.online", 1],
    ]);
    expect(list.body).toMatchObject({ total: 2, total_cost: 1, max_total_cost: 10 });
  });
});
