/** Whether a channel is live, heard once for every feature (server/live/stream-state.ts). */
import { describe, expect, test } from "bun:test";
import type { NotificationFrame } from "../../../server/live/feed.ts";
import { readStreamEvent, StreamStates } from "../../../server/live/stream-state.ts";

const STREAMER = "100001";
const AT = Date.UTC(2026, 2, 14, 18, 30);
const HOLDER = { accountId: 7, speaker: { kind: "streamer" as const, userId: STREAMER } };

const note = (subscriptionType: string, raw: unknown, id = "n1"): NotificationFrame => ({
  type: "notification",
  id,
  at: AT,
  subscriptionType,
  broadcasterId: STREAMER,
  event: null,
  raw,
});

const online = { broadcaster_user_id: STREAMER, id: "1", type: "live", started_at: "2026-03-14T18:00:05Z" };

describe("stream online/offline", () => {
  test("online says since when the stream began; offline since when it was heard; others nothing", () => {
    expect(readStreamEvent(note("stream.online", online), STREAMER)).toEqual({
      live: true,
      since: Date.UTC(2026, 2, 14, 18, 0, 5),
    });
    expect(readStreamEvent(note("stream.offline", { broadcaster_user_id: STREAMER }), STREAMER)).toEqual({
      live: false,
      since: AT,
    });
    // An odd start time is the time it was heard, never NaN.
    expect(readStreamEvent(note("stream.online", { ...online, started_at: "yesterday" }), STREAMER)).toEqual({
      live: true,
      since: AT,
    });
    expect(
      readStreamEvent(note("stream.online", { ...online, broadcaster_user_id: "9" }), STREAMER),
    ).toBeNull();
    expect(readStreamEvent(note("channel.follow", online), STREAMER)).toBeNull();
    for (const raw of [null, "text", [], 42])
      expect(readStreamEvent(note("stream.offline", raw), STREAMER)).toMatchObject({ live: false });
  });

  test("the feed keeps the state per account, heard when; a new session or a drop forgets it", async () => {
    let now = AT + 1000;
    const states = new StreamStates(() => now);
    const feed = states.feedFor(HOLDER, STREAMER);
    expect(feed.types).toEqual(["stream.online", "stream.offline"]);
    expect((await feed.wanted()).map((s) => [s.type, s.condition])).toEqual([
      ["stream.online", { broadcaster_user_id: STREAMER }],
      ["stream.offline", { broadcaster_user_id: STREAMER }],
    ]);
    feed.notification(note("stream.online", online));
    expect(states.get(7)).toEqual({ live: true, since: Date.UTC(2026, 2, 14, 18, 0, 5), heardAt: AT + 1000 });
    now += 5000;
    feed.notification(note("stream.offline", { broadcaster_user_id: STREAMER }, "n2"));
    expect(states.get(7)).toMatchObject({ live: false, heardAt: AT + 6000 });
    feed.down("socket closed", true);
    expect(states.get(7)).toBeNull();
    feed.notification(note("stream.online", online, "n3"));
    await feed.wanted();
    expect(states.get(7)).toBeNull();
  });
});
