import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { ManualClock } from "../../../../server/core/clock.ts";
import type { TwitchSimulator } from "../../../../server/sim/twitch/server.ts";
import { SIM_IDS } from "../../../../server/sim/twitch/world.ts";
import { callHelix, startClockedSimulator } from "../../../helpers/helix.ts";

/**
 * The simulator's limits as Twitch keeps them (reference/moderation.md §4, twitch-chat.md §4–5):
 * Helix buckets per (client id, user), Send Chat Message's own pace, and the counters a flood test
 * reads to show that no limit was hit (`sim.stats`).
 */

let sim: TwitchSimulator;
let clock: ManualClock;
beforeEach(() => {
  ({ sim, clock } = startClockedSimulator());
});
afterEach(async () => {
  await sim.stop();
});

const users = (token: string) => callHelix(sim, token, "GET", "/users");

describe("Helix buckets", () => {
  test("each (client id, user) has its own bucket: one streamer's empty bucket leaves another's full", async () => {
    sim.knobs.rateLimit.limit = 3;
    sim.knobs.rateLimit.remaining = 3;
    const demo = sim.issueUserToken("cuebotdemo", []).accessToken;
    const other = sim.issueUserToken("otherstreamer", []).accessToken;
    for (let i = 0; i < 3; i++) expect((await users(demo)).status).toBe(200);
    const limited = await users(demo);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");
    const fresh = await users(other);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("ratelimit-remaining")).toBe("2");
    // A second token of the same user shares the user's bucket.
    expect((await users(sim.issueUserToken("cuebotdemo", []).accessToken)).status).toBe(429);
    expect(sim.stats.tooMany).toEqual(new Map([["GET /users", 2]]));
    clock.advance(60_000);
    expect((await users(demo)).status).toBe(200);
  });

  test("setting `remaining` leaves that much in every bucket until the refill", async () => {
    const demo = sim.issueUserToken("cuebotdemo", []).accessToken;
    expect((await users(demo)).headers.get("ratelimit-remaining")).toBe("799");
    sim.knobs.rateLimit.remaining = 1;
    expect((await users(demo)).status).toBe(200);
    expect(sim.knobs.rateLimit.remaining).toBe(0);
    const anna = sim.issueUserToken("viewer_anna", []).accessToken;
    expect((await users(anna)).status).toBe(200);
    expect((await users(anna)).status).toBe(429);
    clock.advance(60_000);
    expect((await users(anna)).headers.get("ratelimit-remaining")).toBe("799");
  });
});

describe("Send Chat Message's limits", () => {
  const send = (token: string, senderId: string, message: string) =>
    callHelix<{ data: { is_sent: boolean; drop_reason: { code: string } | null }[] }>(
      sim,
      token,
      "POST",
      "/chat/messages",
      { body: { broadcaster_id: SIM_IDS.demo, sender_id: senderId, message } },
    );

  test("a flood under the limits leaves the counters empty; past them, drops are counted by reason", async () => {
    const own = sim.issueUserToken("cuebotdemo", ["user:write:chat"]).accessToken;
    for (let i = 0; i < 100; i++)
      expect((await send(own, SIM_IDS.demo, `line ${i}`)).body.data[0]!.is_sent).toBe(true);
    expect(sim.stats.tooMany.size).toBe(0);
    expect(sim.stats.chatDrops.size).toBe(0);
    const over = await send(own, SIM_IDS.demo, "the 101st");
    expect(over.status).toBe(200);
    expect(over.body.data[0]!.drop_reason?.code).toBe("msg_ratelimit");
    expect(sim.stats.chatDrops.get("msg_ratelimit")).toBe(1);
  });

  test("its own bucket (800 a minute per user) answers 429 past it, counted by route", async () => {
    const own = sim.issueUserToken("cuebotdemo", ["user:write:chat"]).accessToken;
    // Drops past the pace still spend the bucket (twitch-chat.md §5.1): the 801st call is refused.
    const statuses: number[] = [];
    for (let i = 0; i < 801; i++) statuses.push((await send(own, SIM_IDS.demo, `line ${i}`)).status);
    expect(statuses.filter((s) => s === 200).length).toBe(800);
    expect(statuses.at(-1)).toBe(429);
    expect(sim.stats.tooMany.get("POST /chat/messages")).toBe(1);
  });
});
