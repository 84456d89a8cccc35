import { describe, expect, test } from "bun:test";
import { SeenMessages } from "../../../server/live/dedupe.ts";
import { parseFrame } from "../../../server/live/eventsub-message.ts";

describe("EventSub frames and dedupe", () => {
  const frame = (type: string, payload: object, extra: object = {}) =>
    JSON.stringify({
      metadata: {
        message_id: "f1",
        message_type: type,
        message_timestamp: "2026-11-24T10:00:00.123456789Z",
        ...extra,
      },
      payload,
    });

  test("welcome, keepalive, reconnect and a chat notification are read; nanosecond timestamps parse", () => {
    expect(
      parseFrame(frame("session_welcome", { session: { id: "s1", keepalive_timeout_seconds: 10 } })),
    ).toEqual({
      type: "session_welcome",
      id: "f1",
      at: Date.UTC(2026, 10, 24, 10, 0, 0, 123),
      sessionId: "s1",
      keepaliveSeconds: 10,
    });
    expect(parseFrame(frame("session_keepalive", {}))?.type).toBe("session_keepalive");
    expect(
      parseFrame(frame("session_reconnect", { session: { reconnect_url: "ws://x/ws?id=1" } })),
    ).toMatchObject({
      reconnectUrl: "ws://x/ws?id=1",
    });
    const notification = parseFrame(
      frame(
        "notification",
        {
          event: {
            broadcaster_user_id: "1",
            broadcaster_user_login: "s",
            chatter_user_id: "2",
            chatter_user_login: "v",
            chatter_user_name: "V",
            message_id: "m",
            message: { text: "!so x", fragments: [] },
            badges: [{ set_id: "vip", id: "1", info: "" }],
            reply: { parent_user_login: "p" },
            source_broadcaster_user_id: null,
          },
        },
        { subscription_type: "channel.chat.message" },
      ),
    );
    expect(notification).toMatchObject({
      type: "notification",
      event: { text: "!so x", badges: ["vip"], replyParentLogin: "p", sourceBroadcasterId: null },
    });
  });

  test("anything malformed reads as null, never throws", () => {
    for (const raw of [
      "",
      "{",
      "null",
      "[]",
      '{"metadata":{}}',
      frame("session_welcome", { session: {} }),
      frame("mystery", {}),
    ]) {
      expect(parseFrame(raw)).toBeNull();
    }
    expect(
      parseFrame(
        frame("notification", { event: { message: {} } }, { subscription_type: "channel.chat.message" }),
      ),
    ).toMatchObject({
      event: null,
    });
  });

  test("each message id is admitted once; messages older than 10 minutes never", () => {
    let now = 1_000_000;
    const seen = new SeenMessages(() => now);
    expect(seen.admit("a", now)).toBe(true);
    expect(seen.admit("a", now)).toBe(false);
    expect(seen.admit("b", now - 11 * 60_000)).toBe(false);
    now += 1000;
    expect(seen.admit("c", now - 60_000)).toBe(true);
  });

  test("a message id is still known ten minutes on, after the ids rolled over", () => {
    let now = 1_000_000;
    const seen = new SeenMessages(() => now);
    expect(seen.admit("early", now)).toBe(true);
    now += 9 * 60_000;
    expect(seen.admit("later", now)).toBe(true);
    now += 2 * 60_000;
    expect(seen.admit("newest", now)).toBe(true);
    // Redelivered with its original stamp: "later" is 2 minutes old, "early" 11 (stale either way).
    expect(seen.admit("later", now - 2 * 60_000)).toBe(false);
    expect(seen.admit("newest", now)).toBe(false);
  });

  test("a flood of ids keeps memory bounded: the oldest are forgotten first", () => {
    const now = 1_000_000;
    const seen = new SeenMessages(() => now, 100);
    for (let i = 0; i < 150; i++) expect(seen.admit(`id${i}`, now)).toBe(true);
    expect(seen.admit("id149", now)).toBe(false);
    expect(seen.admit("id51", now)).toBe(false);
    expect(seen.admit("id0", now)).toBe(true);
  });
});
