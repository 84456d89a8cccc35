import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiClient } from "@twurple/api";
import { StaticAuthProvider } from "@twurple/auth";
import { EventSubWsListener } from "@twurple/eventsub-ws";
import { startTwitchSimulator, type TwitchSimulator } from "../../../../server/sim/twitch/server.ts";
import { SIM_IDS, seedWorld } from "../../../../server/sim/twitch/world.ts";
import { waitFor } from "../../../helpers/chat.ts";

/**
 * The simulator's alert events read by a real third-party client: twurple 8.1.4's EventSub WebSocket
 * listener in mock mode (`TWURPLE_MOCK_API_PORT` sends Helix, the subscription API and the socket,
 * `ws://127.0.0.1:<port>/ws`, to the simulator). EventSubWsListener also takes a `url` option for the
 * socket, but ApiClient has no base URL, so mock mode is what points both at the simulator. twurple
 * subscribes the alert types with its own conditions, and its getters must read the payloads right.
 */

const SCOPES = [
  "user:read:chat",
  "moderator:read:followers",
  "channel:read:subscriptions",
  "bits:read",
  "channel:read:redemptions",
];
const MOCK_PORT_ENV = "TWURPLE_MOCK_API_PORT";

let sim: TwitchSimulator;
let listener: EventSubWsListener;
let previousPort: string | undefined;
const received = new Map<string, unknown[]>();

function record(kind: string) {
  return (event: unknown) => {
    received.set(kind, [...(received.get(kind) ?? []), event]);
  };
}

const emit = async (body: object) => {
  const res = await fetch(`${sim.authUrl}/_sim/eventsub/emit`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ broadcaster_user_id: SIM_IDS.demo, ...body }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { delivered: number };
};

/** The first event twurple handed to `kind`'s handler, typed as the test reads it. */
async function first<T>(kind: string): Promise<T> {
  const events = await waitFor(() => received.get(kind), 5000);
  expect(events).toBeTruthy();
  return events![0] as T;
}

beforeAll(async () => {
  sim = startTwitchSimulator({ world: seedWorld(Date.now()) });
  previousPort = process.env[MOCK_PORT_ENV];
  process.env[MOCK_PORT_ENV] = new URL(sim.authUrl).port;
  const { accessToken } = sim.issueUserToken("cuebotdemo", SCOPES);
  const api = new ApiClient({
    authProvider: new StaticAuthProvider(sim.client.id, accessToken, SCOPES),
    logger: { minLevel: "critical" },
  });
  listener = new EventSubWsListener({ apiClient: api, logger: { minLevel: "critical" } });
  const me = SIM_IDS.demo;
  listener.onChannelFollow(me, me, record("follow"));
  listener.onChannelSubscription(me, record("subscribe"));
  listener.onChannelSubscriptionMessage(me, record("resub"));
  listener.onChannelSubscriptionGift(me, record("gift"));
  listener.onChannelCheer(me, record("cheer"));
  listener.onChannelRaidTo(me, record("raid"));
  listener.onChannelRedemptionAdd(me, record("redemption"));
  listener.onStreamOnline(me, record("online"));
  listener.start();
  const enabled = await waitFor(() => {
    const subs = sim.chat.subscriptions().filter((s) => s.status === "enabled");
    return subs.length === 8 ? subs : null;
  }, 10_000);
  expect(enabled?.map((s) => s.type).sort()).toEqual([
    "channel.channel_points_custom_reward_redemption.add",
    "channel.cheer",
    "channel.follow",
    "channel.raid",
    "channel.subscribe",
    "channel.subscription.gift",
    "channel.subscription.message",
    "stream.online",
  ]);
}, 20_000);

afterAll(async () => {
  listener?.stop();
  if (previousPort === undefined) delete process.env[MOCK_PORT_ENV];
  else process.env[MOCK_PORT_ENV] = previousPort;
  await sim.stop();
});

interface Named {
  userDisplayName: string;
}

describe("twurple 8.1.4 reads the simulator's alert events", () => {
  test("the conditions twurple sends (follow: broadcaster and moderator; raid: to) are accepted", () => {
    const follow = sim.chat.subscriptions().find((s) => s.type === "channel.follow");
    expect(follow?.condition).toEqual({ broadcaster_user_id: SIM_IDS.demo, moderator_user_id: SIM_IDS.demo });
    const raid = sim.chat.subscriptions().find((s) => s.type === "channel.raid");
    expect(raid?.condition).toEqual({ to_broadcaster_user_id: SIM_IDS.demo });
  });

  test("follow, subscribe and a resub without streak or emotes", async () => {
    await emit({ type: "follow", user: "viewer_anna", followed_at: "2026-03-14T19:02:11.171067130Z" });
    const follow = await first<Named & { followDate: Date; userId: string }>("follow");
    expect(follow.userDisplayName).toBe("Viewer_Anna");
    expect(follow.userId).toBe(SIM_IDS.anna);
    expect(follow.followDate.toISOString()).toBe("2026-03-14T19:02:11.171Z");

    await emit({ type: "subscribe", user: "subdave", tier: "2000" });
    const sub = await first<Named & { tier: string; isGift: boolean }>("subscribe");
    expect(sub).toMatchObject({ userDisplayName: "SubDave", tier: "2000", isGift: false });

    await emit({
      type: "resub",
      user: "데모시청자",
      cumulative_months: 7,
      streak_months: null,
      emotes: null,
    });
    const resub = await first<
      Named & {
        cumulativeMonths: number;
        streakMonths: number | null;
        messageText: string;
        emoteOffsets: unknown;
      }
    >("resub");
    expect(resub.userDisplayName).toBe("데모시청자");
    expect(resub.cumulativeMonths).toBe(7);
    expect(resub.streakMonths).toBeNull();
    expect(resub.messageText).toBe("14 months already Kappa");
    expect(resub.emoteOffsets).toEqual(new Map());
  });

  test("an anonymous gift bomb of 3: one gift with amount 3, three is_gift subscribes", async () => {
    received.delete("subscribe");
    await emit({ type: "gift", total: 3, anonymous: true });
    const gift = await first<{
      amount: number;
      isAnonymous: boolean;
      gifterDisplayName: string | null;
      cumulativeAmount: number | null;
    }>("gift");
    expect(gift).toMatchObject({
      amount: 3,
      isAnonymous: true,
      gifterDisplayName: null,
      cumulativeAmount: null,
    });
    const subs = await waitFor(() =>
      (received.get("subscribe")?.length ?? 0) >= 3 ? received.get("subscribe") : null,
    );
    const recipients = (subs as (Named & { isGift: boolean })[]).map((s) => [s.userDisplayName, s.isGift]);
    expect(recipients).toHaveLength(3);
    expect(new Set(recipients.map(([name]) => name)).size).toBe(3);
    expect(recipients.every(([, isGift]) => isGift === true)).toBe(true);
  });

  test("cheer, raid, redemption and stream online", async () => {
    await emit({ type: "cheer", user: "modbob", bits: 500, message: "Cheer500 take my bits" });
    const cheer = await first<Named & { bits: number; message: string; isAnonymous: boolean }>("cheer");
    expect(cheer).toMatchObject({ userDisplayName: "ModBob", bits: 500, message: "Cheer500 take my bits" });
    expect(cheer.isAnonymous).toBe(false);

    await emit({ type: "raid", user: "otherstreamer", viewers: 42 });
    const raid = await first<{ raidingBroadcasterDisplayName: string; viewers: number }>("raid");
    expect(raid).toMatchObject({ raidingBroadcasterDisplayName: "OtherStreamer", viewers: 42 });

    await emit({
      type: "redemption",
      user: "lurker_eve",
      reward: { title: "Hydrate!", cost: 250, prompt: "Drink water" },
      user_input: "now please",
    });
    const redemption = await first<
      Named & { rewardTitle: string; rewardCost: number; rewardPrompt: string; input: string; status: string }
    >("redemption");
    expect(redemption).toMatchObject({
      userDisplayName: "Lurker_Eve",
      rewardTitle: "Hydrate!",
      rewardCost: 250,
      rewardPrompt: "Drink water",
      input: "now please",
      status: "unfulfilled",
    });

    await emit({ type: "online", id: "40261982654" });
    const online = await first<{ broadcasterDisplayName: string; id: string; type: string; startDate: Date }>(
      "online",
    );
    expect(online).toMatchObject({ broadcasterDisplayName: "CuebotDemo", id: "40261982654", type: "live" });
    expect(Number.isNaN(online.startDate.getTime())).toBe(false);
  });

  test("a redelivery with the same message id reaches twurple's handler once", async () => {
    received.delete("cheer");
    const { delivered } = await emit({ type: "cheer", bits: 1, redeliver: true });
    expect(delivered).toBe(1);
    await first("cheer");
    await Bun.sleep(300);
    expect(received.get("cheer")).toHaveLength(1);
  });
});
