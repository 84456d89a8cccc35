import { describe, expect, test } from "bun:test";
import type { ActionTrigger } from "../../../server/actions/model.ts";
import {
  alertCause,
  alertSetsOff,
  streamSetsOff,
  streamTransition,
} from "../../../server/actions/triggers.ts";
import type { AlertFields } from "../../../server/vocabulary.ts";

const fields = (over: Partial<AlertFields> = {}): AlertFields => ({
  user: "Viewer",
  amount: null,
  months: null,
  tier: null,
  reward: null,
  message: null,
  ...over,
});

const alert = (over: Partial<Extract<ActionTrigger, { type: "alert" }>>): ActionTrigger => ({
  type: "alert",
  kind: "raid",
  min: 0,
  reward: null,
  ...over,
});

describe("alert triggers", () => {
  test("the alerts' subscribe is the trigger's sub; other kinds do not match", () => {
    expect(alertSetsOff(alert({ kind: "sub" }), "subscribe", fields())).toBe(true);
    expect(alertSetsOff(alert({ kind: "sub" }), "resub", fields({ amount: 3 }))).toBe(false);
    expect(alertSetsOff(alert({ kind: "follow" }), "follow", fields())).toBe(true);
    expect(alertSetsOff({ type: "button" }, "follow", fields())).toBe(false);
  });

  test("bits, gifted subs, raid viewers and resub months count against min; at min it fires", () => {
    for (const [kind, type] of [
      ["cheer", "cheer"],
      ["gift", "gift"],
      ["raid", "raid"],
      ["resub", "resub"],
    ] as const) {
      expect(alertSetsOff(alert({ kind, min: 10 }), type, fields({ amount: 9 }))).toBe(false);
      expect(alertSetsOff(alert({ kind, min: 10 }), type, fields({ amount: 10 }))).toBe(true);
      expect(alertSetsOff(alert({ kind, min: 10 }), type, fields({ amount: null }))).toBe(false);
      expect(alertSetsOff(alert({ kind, min: 0 }), type, fields({ amount: null }))).toBe(true);
    }
  });

  test("min means nothing for follows, subs and redemptions", () => {
    expect(alertSetsOff(alert({ kind: "follow", min: 50 }), "follow", fields())).toBe(true);
    expect(alertSetsOff(alert({ kind: "sub", min: 50 }), "subscribe", fields())).toBe(true);
    expect(alertSetsOff(alert({ kind: "redemption", min: 50 }), "redemption", fields())).toBe(true);
  });

  test("a redemption matches the reward's title when given (case and edge spaces aside)", () => {
    const hydrate = alert({ kind: "redemption", reward: "Hydrate!" });
    expect(alertSetsOff(hydrate, "redemption", fields({ reward: "hydrate! " }))).toBe(true);
    expect(alertSetsOff(hydrate, "redemption", fields({ reward: "Hydrate" }))).toBe(false);
    expect(alertSetsOff(hydrate, "redemption", fields({ reward: null }))).toBe(false);
    expect(alertSetsOff(alert({ kind: "redemption" }), "redemption", fields({ reward: "Any" }))).toBe(true);
  });

  test("the event fills {user}, {amount}, {reward}, {message}", () => {
    expect(alertCause(fields({ user: "Eve", amount: 5, reward: "Kazoo", message: "toot" }))).toEqual({
      trigger: "alert",
      user: "Eve",
      amount: 5,
      reward: "Kazoo",
      message: "toot",
    });
  });
});

describe("stream triggers", () => {
  const online = (since: number) => ({ live: true, since, heardAt: since });
  const offline = (since: number) => ({ live: false, since, heardAt: since });

  test("online and offline transitions fire; the same event again, or not known any more, does not", () => {
    expect(streamTransition(null, online(1))).toBe(true);
    expect(streamTransition(online(1), online(1))).toBe(false);
    expect(streamTransition(online(1), offline(2))).toBe(true);
    expect(streamTransition(offline(2), offline(3))).toBe(false);
    expect(streamTransition(offline(2), online(4))).toBe(true);
    expect(streamTransition(online(1), online(5))).toBe(true);
    expect(streamTransition(online(1), null)).toBe(false);
  });

  test("a trigger fires for its own state only", () => {
    expect(streamSetsOff({ type: "stream", state: "online" }, true)).toBe(true);
    expect(streamSetsOff({ type: "stream", state: "online" }, false)).toBe(false);
    expect(streamSetsOff({ type: "stream", state: "offline" }, false)).toBe(true);
    expect(streamSetsOff({ type: "button" }, true)).toBe(false);
  });
});
