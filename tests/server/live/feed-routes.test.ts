/** Which feeds of a session receive a frame (server/live/feed-routes.ts). */
import { describe, expect, test } from "bun:test";
import type { LiveFeed, NotificationFrame, RevocationFrame } from "../../../server/live/feed.ts";
import { FeedRoutes } from "../../../server/live/feed-routes.ts";

const NOW = 1_700_000_000_000;

function feed(broadcasterId: string, types: string[], got: string[]): LiveFeed {
  return {
    holder: { accountId: 1, speaker: { kind: "streamer", userId: "u1" } },
    broadcasterId,
    types,
    wanted: async () => [],
    subscribed: () => true,
    notification: (frame) => got.push(`${frame.subscriptionType}@${frame.broadcasterId}#${frame.id}`),
    revoked: () => true,
    down: () => {},
  };
}

const note = (id: string, type: string, broadcasterId: string, at = NOW): NotificationFrame => ({
  type: "notification",
  id,
  at,
  subscriptionType: type,
  broadcasterId,
  event: null,
  raw: {},
});

const revocation = (type: string, broadcasterId: string): RevocationFrame => ({
  type: "revocation",
  id: "r",
  at: NOW,
  subscriptionType: type,
  status: "authorization_revoked",
  broadcasterId,
});

describe("feed routes", () => {
  test("a notification reaches the feeds of its type and channel only, each message id once", () => {
    const routes = new FeedRoutes(() => NOW);
    const chatA: string[] = [];
    const chatB: string[] = [];
    const alertsA: string[] = [];
    routes.add(feed("A", ["channel.chat.message"], chatA));
    routes.add(feed("B", ["channel.chat.message"], chatB));
    routes.add(feed("A", ["channel.follow", "stream.online"], alertsA));
    routes.deliver(note("1", "channel.chat.message", "A"));
    routes.deliver(note("1", "channel.chat.message", "A"));
    routes.deliver(note("2", "channel.chat.message", "B"));
    routes.deliver(note("3", "channel.follow", "A"));
    routes.deliver(note("4", "channel.follow", "B"));
    routes.deliver(note("5", "channel.cheer", "A"));
    expect(chatA).toEqual(["channel.chat.message@A#1"]);
    expect(chatB).toEqual(["channel.chat.message@B#2"]);
    expect(alertsA).toEqual(["channel.follow@A#3"]);
  });

  test("two feeds of one type and channel both receive it; a removed feed nothing more", () => {
    const routes = new FeedRoutes(() => NOW);
    const first: string[] = [];
    const second: string[] = [];
    const one = feed("A", ["stream.online"], first);
    routes.add(one);
    routes.add(feed("A", ["stream.online"], second));
    routes.deliver(note("1", "stream.online", "A"));
    routes.remove(one);
    routes.deliver(note("2", "stream.online", "A"));
    expect(first).toEqual(["stream.online@A#1"]);
    expect(second).toEqual(["stream.online@A#1", "stream.online@A#2"]);
    expect(routes.feeds.size).toBe(1);
  });

  test("a message stamped over ten minutes ago is not delivered; one for no feed's channel is not remembered", () => {
    const routes = new FeedRoutes(() => NOW);
    const got: string[] = [];
    routes.add(feed("A", ["channel.chat.message"], got));
    routes.deliver(note("old", "channel.chat.message", "A", NOW - 11 * 60_000));
    routes.deliver(note("x", "channel.chat.message", "Z"));
    routes.deliver(note("x", "channel.chat.message", ""));
    routes.deliver(note("x", "channel.chat.message", "A"));
    expect(got).toEqual(["channel.chat.message@A#x"]);
  });

  test("a revocation concerns its type's feed for its channel, or every channel's when it names none", () => {
    const routes = new FeedRoutes(() => NOW);
    const a = feed("A", ["channel.chat.message"], []);
    const b = feed("B", ["channel.chat.message"], []);
    routes.add(a);
    routes.add(b);
    routes.add(feed("A", ["channel.follow"], []));
    expect(routes.revokedFeeds(revocation("channel.chat.message", "A"))).toEqual([a]);
    expect(routes.revokedFeeds(revocation("channel.chat.message", ""))).toEqual([a, b]);
    expect(routes.revokedFeeds(revocation("channel.cheer", "A"))).toEqual([]);
  });
});
