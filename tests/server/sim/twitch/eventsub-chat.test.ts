import { afterEach, describe, expect, test } from "bun:test";
import { ManualClock } from "../../../../server/core/clock.ts";
import { createLogger } from "../../../../server/core/log.ts";
import { EventSubConnection } from "../../../../server/live/eventsub-connection.ts";
import { startTwitchSimulator, type TwitchSimulator } from "../../../../server/sim/twitch/server.ts";
import { SIM_EPOCH, SIM_IDS } from "../../../../server/sim/twitch/world.ts";
import { waitFor } from "../../../helpers/chat.ts";
import { callHelix } from "../../../helpers/helix.ts";
import { holdWithLinesAfterKeepalives } from "../../../helpers/keepalive-hold.ts";

/**
 * The simulator's EventSub transport, subscription API and Send Chat Message, checked against
 * reference/twitch-chat.md (§1–§5, §7) over real sockets — so the client tests run against something
 * that behaves like Twitch.
 */

/** Simulated seconds for the tests that wait for the protocol's timers (a 10 s window is 200 ms). */
const SECOND = 20;
/**
 * For tests that make several HTTP calls inside a protocol window (subscribing within the 10 s after
 * the welcome, acting within the 30 s reconnect grace): roomy enough for a loaded CI machine. Tests
 * that wait for no timer use the default, real seconds.
 */
const ROOMY_SECOND = 100;
let sim: TwitchSimulator;
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.close();
  await sim.stop();
});

interface Frame {
  metadata: Record<string, string>;
  payload: Record<string, unknown>;
}

/** A client socket that records frames and its close code. */
function connect(query = "") {
  const ws = new WebSocket(`${sim.eventsubUrl}${query}`);
  sockets.push(ws);
  const frames: Frame[] = [];
  const state = { closed: null as number | null, frames, ws };
  ws.onmessage = (m) => frames.push(JSON.parse(String(m.data)) as Frame);
  ws.onclose = (e) => {
    state.closed = e.code;
  };
  return state;
}

/**
 * A WebSocket client over raw TCP that never answers a Ping (every WebSocket library answers them):
 * it only reads, and reports the code of the server's close frame.
 */
async function connectWithoutPongs(url: string) {
  const { hostname, port, pathname } = new URL(url);
  let received = Buffer.alloc(0);
  const socket = await Bun.connect({
    hostname,
    port: Number(port),
    socket: {
      data(_, chunk) {
        received = Buffer.concat([received, chunk]);
      },
    },
  });
  socket.write(
    `GET ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${btoa("cuebot-no-pongs!")}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  return { closeCode: () => closeCodeIn(received), end: () => socket.end() };
}

/** The code of the first close frame after the HTTP upgrade answer, or null (server frames are unmasked). */
function closeCodeIn(bytes: Buffer): number | null {
  let at = bytes.indexOf("\r\n\r\n");
  if (at < 0) return null;
  at += 4;
  while (at + 2 <= bytes.length) {
    const opcode = bytes[at]! & 0x0f;
    let length = bytes[at + 1]! & 0x7f;
    let header = 2;
    if (length === 126) {
      length = bytes.readUInt16BE(at + 2);
      header = 4;
    } else if (length === 127) {
      length = Number(bytes.readBigUInt64BE(at + 2));
      header = 10;
    }
    if (at + header + length > bytes.length) return null;
    if (opcode === 8) return bytes.readUInt16BE(at + header);
    at += header + length;
  }
  return null;
}

const welcomeOf = async (c: ReturnType<typeof connect>) => {
  const f = await waitFor(() => c.frames.find((x) => x.metadata.message_type === "session_welcome"));
  return f!.payload.session as { id: string; keepalive_timeout_seconds: number };
};

const READER = ["user:read:chat", "user:write:chat"];

function subscribe(
  token: string,
  sessionId: string,
  condition: { broadcaster_user_id: string; user_id: string } = {
    broadcaster_user_id: SIM_IDS.demo,
    user_id: SIM_IDS.demo,
  },
) {
  return callHelix(sim, token, "POST", "/eventsub/subscriptions", {
    body: {
      type: "channel.chat.message",
      version: "1",
      condition,
      transport: { method: "websocket", session_id: sessionId },
    },
  });
}

describe("EventSub WebSocket (reference §1, §7.1)", () => {
  test("welcome: session id, keepalive clamped to 10–600, RFC 3339 nanosecond stamps, UUID message ids", async () => {
    sim = startTwitchSimulator();
    const low = await welcomeOf(connect("?keepalive_timeout_seconds=3"));
    const high = connect("?keepalive_timeout_seconds=9999");
    expect(low.keepalive_timeout_seconds).toBe(10);
    expect((await welcomeOf(high)).keepalive_timeout_seconds).toBe(600);
    const frame = high.frames[0]!;
    expect(frame.metadata.message_id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    expect(frame.metadata.message_timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
    expect(frame.payload.session).toMatchObject({ status: "connected", reconnect_url: null });
  });

  test("nothing subscribed within 10 s closes with 4003; anything sent by the client closes with 4001", async () => {
    sim = startTwitchSimulator({ eventsubSecondMs: SECOND });
    const idle = connect();
    await welcomeOf(idle);
    expect(await waitFor(() => idle.closed === 4003, 2000)).toBe(true);
    const chatty = connect();
    await welcomeOf(chatty);
    chatty.ws.send("hello");
    expect(await waitFor(() => chatty.closed === 4001, 2000)).toBe(true);
  });

  test("keepalives arrive in silent windows, and can be suppressed per session", async () => {
    sim = startTwitchSimulator({ eventsubSecondMs: SECOND });
    const { accessToken } = sim.issueUserToken("cuebotdemo", READER);
    const c = connect();
    const session = await welcomeOf(c);
    expect((await subscribe(accessToken, session.id)).status).toBe(202);
    expect(
      await waitFor(
        () => c.frames.filter((f) => f.metadata.message_type === "session_keepalive").length >= 2,
        2000,
      ),
    ).toBe(true);
    sim.chat.dropKeepalives(true, session.id);
    const count = c.frames.length;
    await Bun.sleep(30 * SECOND);
    expect(c.frames.length).toBe(count);
  });

  test("a chat line arrives as a full channel.chat.message notification, only where subscribed", async () => {
    sim = startTwitchSimulator();
    const { accessToken } = sim.issueUserToken("cuebotdemo", READER);
    const c = connect();
    const other = connect();
    await welcomeOf(other);
    expect((await subscribe(accessToken, (await welcomeOf(c)).id)).status).toBe(202);
    const id = sim.chat.say({
      channel: "cuebotdemo",
      user: "viewer_anna",
      text: "hi @modbob Cheer100 !so x",
    });
    const note = (await waitFor(() => c.frames.find((f) => f.metadata.message_type === "notification")))!;
    expect(note.metadata).toMatchObject({
      subscription_type: "channel.chat.message",
      subscription_version: "1",
    });
    const event = note.payload.event as Record<string, unknown>;
    for (const key of [
      "broadcaster_user_id",
      "broadcaster_user_login",
      "broadcaster_user_name",
      "chatter_user_id",
      "chatter_user_login",
      "chatter_user_name",
      "message_id",
      "message",
      "message_type",
      "badges",
      "cheer",
      "color",
      "reply",
      "channel_points_custom_reward_id",
      "source_broadcaster_user_id",
      "source_message_id",
      "source_badges",
    ]) {
      expect(Object.hasOwn(event, key)).toBe(true);
    }
    expect(event).toMatchObject({
      message_id: id,
      chatter_user_login: "viewer_anna",
      broadcaster_user_id: SIM_IDS.demo,
    });
    const fragments = (event.message as { fragments: { type: string }[] }).fragments.map((f) => f.type);
    expect(fragments).toEqual(["text", "mention", "text", "cheermote", "text"]);
    expect(other.frames.some((f) => f.metadata.message_type === "notification")).toBe(false);
  });

  test("cheer carries the bits of a chatter's cheermotes (none for a sent message); subscribers wear the subscriber badge", async () => {
    sim = startTwitchSimulator();
    const { accessToken } = sim.issueUserToken("cuebotdemo", READER);
    const c = connect();
    await subscribe(accessToken, (await welcomeOf(c)).id);
    const eventOf = async (messageId: string) =>
      (
        await waitFor(() =>
          c.frames.find(
            (f) => (f.payload.event as { message_id?: string } | undefined)?.message_id === messageId,
          ),
        )
      )?.payload.event as Record<string, unknown>;
    const cheered = await eventOf(
      sim.chat.say({ channel: "cuebotdemo", user: "subdave", text: "Cheer100 nice Cheer5" }),
    );
    expect(cheered).toMatchObject({ cheer: { bits: 105 }, badges: [{ set_id: "subscriber", id: "0" }] });
    const plain = await eventOf(sim.chat.say({ channel: "cuebotdemo", user: "modbob", text: "no bits" }));
    expect(plain).toMatchObject({ cheer: null, badges: [{ set_id: "moderator" }] });
    const res = await callHelix<{ data: { message_id: string }[] }>(
      sim,
      accessToken,
      "POST",
      "/chat/messages",
      {
        body: { broadcaster_id: SIM_IDS.demo, sender_id: SIM_IDS.demo, message: "Cheer100" },
      },
    );
    const sent = await eventOf(res.body.data[0]!.message_id);
    expect(sent).toMatchObject({ cheer: null, message: { fragments: [{ type: "text", text: "Cheer100" }] } });
  });

  test("reconnect: session_reconnect with an absolute URL; the subscriptions move; a reused URL gets 4007", async () => {
    sim = startTwitchSimulator({ eventsubSecondMs: SECOND });
    const { accessToken } = sim.issueUserToken("cuebotdemo", READER);
    const c = connect();
    const first = await welcomeOf(c);
    await subscribe(accessToken, first.id);
    sim.chat.reconnect();
    const reconnect = (await waitFor(() =>
      c.frames.find((f) => f.metadata.message_type === "session_reconnect"),
    ))!;
    const url = (reconnect.payload.session as { reconnect_url: string }).reconnect_url;
    expect(url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/ws\?challenge=[0-9a-f]+&id=[0-9a-f]+$/);
    const moved = connect(url.slice(sim.eventsubUrl.length));
    const second = await welcomeOf(moved);
    expect(sim.chat.subscriptions()[0]).toMatchObject({ sessionId: second.id, status: "enabled" });
    const reused = connect(url.slice(sim.eventsubUrl.length));
    expect(await waitFor(() => reused.closed === 4007, 2000)).toBe(true);
    // The old socket is closed with 4004 after the 30 s grace.
    expect(await waitFor(() => c.closed === 4004, 10_000)).toBe(true);
  });

  test("revocation: a frame per subscription, then disabled; authorization_revoked kills the tokens", async () => {
    sim = startTwitchSimulator();
    const { accessToken } = sim.issueUserToken("cuebotdemo", READER);
    const c = connect();
    await subscribe(accessToken, (await welcomeOf(c)).id);
    sim.chat.revoke(SIM_IDS.demo);
    const frame = (await waitFor(() => c.frames.find((f) => f.metadata.message_type === "revocation")))!;
    expect(frame.payload.subscription).toMatchObject({
      status: "authorization_revoked",
      type: "channel.chat.message",
    });
    expect(sim.chat.subscriptions()[0]!.status).toBe("authorization_revoked");
    const validate = await fetch(`${sim.authUrl}/oauth2/validate`, {
      headers: { Authorization: `OAuth ${accessToken}` },
    });
    expect(validate.status).toBe(401);
  });

  test("close codes 4000/4005/4006 and a dropped socket disable the subscriptions with the matching status", async () => {
    sim = startTwitchSimulator();
    for (const [code, status] of [
      [4000, "websocket_internal_error"],
      [4005, "websocket_network_timeout"],
      [4006, "websocket_network_error"],
      [1006, "websocket_disconnected"],
    ] as const) {
      const { accessToken } = sim.issueUserToken("cuebotdemo", READER);
      const c = connect();
      const session = await welcomeOf(c);
      await subscribe(accessToken, session.id);
      sim.chat.close(session.id, code);
      expect(await waitFor(() => c.closed !== null, 2000)).toBe(true);
      if (code !== 1006) expect(c.closed).toBe(code);
      const sub = sim.chat.subscriptions().find((s) => s.sessionId === session.id)!;
      expect(sub).toMatchObject({ status });
      expect(sub.disconnectedAt).not.toBeNull();
    }
  });

  test("a Ping left without a Pong closes the socket with 4002; a client that answers stays connected", async () => {
    // A Ping at the opening, then a tick every 1.5 s: the silent client fails at the second tick
    // (3 s); the answering one, pinged as often, has been judged by then and again 1.5 s later.
    const pingMs = 1500;
    sim = startTwitchSimulator({ eventsubPingMs: pingMs });
    const silent = await connectWithoutPongs(sim.eventsubUrl);
    const answering = connect();
    await welcomeOf(answering);
    try {
      expect(await waitFor(() => silent.closeCode() === 4002, 4 * pingMs)).toBe(true);
      await Bun.sleep(pingMs);
      expect(answering.closed).toBeNull();
    } finally {
      silent.end();
    }
  });

  test("a client that answers is not failed by stalls of the event loop it shares with the simulator, even longer than the Ping interval", async () => {
    const pingMs = 100;
    sim = startTwitchSimulator({ eventsubPingMs: pingMs });
    const answering = connect();
    await welcomeOf(answering);
    // Busy, as under GC or on a starved CI machine: no timer and no socket runs meanwhile. Stalls of
    // 1 to 3 intervals, at varying points of the Ping cycle.
    for (let i = 0; i < 6 && answering.closed === null; i++) {
      const until = performance.now() + pingMs * (1 + (i % 7) / 3) + ((i * 13) % 50);
      while (performance.now() < until) {}
      await Bun.sleep((i * 17) % 60);
    }
    await Bun.sleep(3 * pingMs);
    expect(answering.closed).toBeNull();
  });

  test("the transport's knobs over loopback HTTP (/_sim/eventsub/*) for the demo and other processes", async () => {
    sim = startTwitchSimulator({ eventsubSecondMs: ROOMY_SECOND });
    const control = async (action: string, body?: object) => {
      const res = await fetch(`${sim.authUrl}/_sim/eventsub/${action}`, {
        method: body ? "POST" : "GET",
        ...(body ? { headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const { accessToken } = sim.issueUserToken("cuebotdemo", READER);
    const c = connect();
    const session = await welcomeOf(c);
    await subscribe(accessToken, session.id);
    expect((await control("sessions")).body.data).toEqual([
      expect.objectContaining({ id: session.id, status: "connected", userId: SIM_IDS.demo }),
    ]);
    expect((await control("subscriptions")).body.data).toEqual([
      expect.objectContaining({ sessionId: session.id, status: "enabled" }),
    ]);

    expect(await control("keepalives", { drop: true, session_id: session.id })).toEqual({
      status: 200,
      body: { sessions: 1 },
    });
    const quiet = c.frames.length;
    await Bun.sleep(15 * ROOMY_SECOND);
    expect(c.frames.length).toBe(quiet);
    await control("keepalives", { drop: false });
    expect(await waitFor(() => c.frames.length > quiet, 20 * ROOMY_SECOND)).toBe(true);

    expect((await control("reconnect", {})).body).toEqual({ reconnecting: [session.id] });
    expect(await waitFor(() => c.frames.some((f) => f.metadata.message_type === "session_reconnect"))).toBe(
      true,
    );

    expect((await control("close", { session_id: session.id, code: 4001 })).status).toBe(400);
    expect((await control("close", { session_id: "nope", code: 4002 })).status).toBe(404);
    expect((await control("close", { session_id: session.id, code: 4002 })).status).toBe(200);
    expect(await waitFor(() => c.closed === 4002, 2000)).toBe(true);
    expect(sim.chat.subscriptions()[0]!.status).toBe("websocket_failed_ping_pong");

    const again = connect();
    await subscribe(accessToken, (await welcomeOf(again)).id);
    expect((await control("revoke", { user_id: SIM_IDS.demo, reason: "user_removed" })).body).toEqual({
      revoked: 1,
    });
    expect(await waitFor(() => again.frames.some((f) => f.metadata.message_type === "revocation"))).toBe(
      true,
    );
    expect((await control("revoke", {})).status).toBe(400);
    expect((await control("unknown", {})).status).toBe(404);
  });

  test("/_sim/ controls take only application/json bodies (a web page cannot POST it without a preflight): 415 otherwise", async () => {
    sim = startTwitchSimulator();
    const post = (path: string, body: object, type?: string) =>
      fetch(`${sim.authUrl}/_sim/${path}`, {
        method: "POST",
        headers: type ? { "Content-Type": type } : {},
        body: JSON.stringify(body),
      });
    const say = { channel: "cuebotdemo", user: "viewer_anna", text: "hi" };
    const revoke = { user_id: SIM_IDS.demo };
    for (const type of [
      undefined,
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data",
    ]) {
      expect((await post("chat/say", say, type)).status).toBe(415);
      expect((await post("eventsub/revoke", revoke, type)).status).toBe(415);
    }
    expect(sim.chat.lines("cuebotdemo")).toEqual([]);
    expect((await post("chat/say", say, "application/json; charset=utf-8")).status).toBe(200);
    expect((await post("eventsub/revoke", revoke, "Application/JSON")).status).toBe(200);
    expect((await fetch(`${sim.authUrl}/_sim/eventsub/sessions`)).status).toBe(200);
  });

  test("closed sessions and subscriptions disabled an hour ago are forgotten (the socket at once); a reconnect URL past its grace gets 4007", async () => {
    const clock = new ManualClock(SIM_EPOCH);
    sim = startTwitchSimulator({ clock, eventsubSecondMs: ROOMY_SECOND });
    const { accessToken } = sim.issueUserToken("cuebotdemo", READER);
    const first = connect();
    const closed = await welcomeOf(first);
    await subscribe(accessToken, closed.id);
    sim.chat.reconnect(closed.id);
    const graceEnds = performance.now() + 30 * ROOMY_SECOND;
    const reconnect = (await waitFor(() =>
      first.frames.find((f) => f.metadata.message_type === "session_reconnect"),
    ))!;
    const url = (reconnect.payload.session as { reconnect_url: string }).reconnect_url;
    sim.chat.close(closed.id, 4006);
    expect(await waitFor(() => first.closed === 4006, 2000)).toBe(true);
    const ids = () => ({
      sessions: sim.chat.sessions().map((s) => s.id),
      subscriptions: sim.chat.subscriptions().map((s) => s.sessionId),
    });

    clock.advance(59 * 60_000);
    const second = connect();
    const kept = await welcomeOf(second);
    expect(ids()).toEqual({ sessions: [closed.id, kept.id], subscriptions: [closed.id] });

    clock.advance(2 * 60_000);
    const third = connect();
    const fresh = await welcomeOf(third);
    expect(ids()).toEqual({ sessions: [kept.id, fresh.id], subscriptions: [] });

    // The challenge is usable only within the 30 s grace, then forgotten.
    await Bun.sleep(graceEnds - performance.now() + 50);
    const late = connect(url.slice(sim.eventsubUrl.length));
    expect(await waitFor(() => late.closed === 4007, 2000)).toBe(true);
  });
});

describe("cuebot's own EventSub client against the simulator", () => {
  test("survives 25 s of keepalive windows with a chat line right after each keepalive", async () => {
    // Longer seconds than the other tests: the 1.2 × watchdog leaves 0.2 × 10 s = 1 s of slack for a
    // stall of the event loop cuebot's client shares with the simulator. Three lines (the hold ends
    // at the third keepalive): two windows that start just after a keepalive, in about 15 s.
    const second = 500;
    sim = startTwitchSimulator({ eventsubSecondMs: second });
    const { accessToken } = sim.issueUserToken("cuebotdemo", READER);
    const received = new Set<string>();
    const drops: string[] = [];
    const connection = new EventSubConnection({
      url: sim.eventsubUrl,
      secondMs: second,
      log: createLogger({ level: "error", format: "json", write: () => {} }),
      handlers: {
        onWelcome: async (sessionId) => {
          const { status } = await subscribe(accessToken, sessionId);
          if (status !== 202) throw new Error(`subscribing answered ${status}`);
        },
        onFrame: (frame) => {
          if (frame.type === "notification" && frame.event) received.add(frame.event.messageId);
        },
        onDown: (reason) => drops.push(reason),
      },
    });
    connection.start();
    try {
      const sessionId = await waitFor(() => connection.sessionId);
      const said = await holdWithLinesAfterKeepalives(sim, sessionId!, 25 * second, second);
      expect(drops).toEqual([]);
      expect(said.length).toBeGreaterThanOrEqual(3);
      expect(await waitFor(() => said.every((id) => received.has(id)))).toBe(true);
      expect(connection.sessionId).toBe(sessionId);
    } finally {
      connection.stop();
    }
  }, 40_000);
});

describe("the subscription API (reference §2, §7.2)", () => {
  test("errors in Twitch's order: app token 401, missing scope or another user 403, bad input 400, duplicate 409", async () => {
    sim = startTwitchSimulator();
    const c = connect();
    const session = await welcomeOf(c);
    const form = new URLSearchParams({
      client_id: sim.client.id,
      client_secret: sim.client.secret,
      grant_type: "client_credentials",
    });
    const app = (
      (await (await fetch(`${sim.authUrl}/oauth2/token`, { method: "POST", body: form })).json()) as {
        access_token: string;
      }
    ).access_token;
    expect((await subscribe(app, session.id)).status).toBe(401);
    const noScope = sim.issueUserToken("cuebotdemo", ["user:write:chat"]).accessToken;
    expect(await subscribe(noScope, session.id)).toMatchObject({
      status: 403,
      body: { message: "subscription missing proper authorization" },
    });
    const token = sim.issueUserToken("cuebotdemo", READER).accessToken;
    expect(
      (await subscribe(token, session.id, { broadcaster_user_id: SIM_IDS.demo, user_id: SIM_IDS.anna }))
        .status,
    ).toBe(403);
    const bad = await callHelix(sim, token, "POST", "/eventsub/subscriptions", {
      body: {
        type: "channel.follow",
        version: "2",
        condition: {},
        transport: { method: "websocket", session_id: session.id },
      },
    });
    expect(bad.status).toBe(400);
    expect(await subscribe(token, "no-such-session")).toMatchObject({
      status: 400,
      body: { message: "websocket transport session does not exist or has already disconnected" },
    });
    const ok = await subscribe(token, session.id);
    expect(ok.status).toBe(202);
    expect(ok.body).toMatchObject({
      data: [
        {
          status: "enabled",
          type: "channel.chat.message",
          version: "1",
          cost: 0,
          transport: { method: "websocket", session_id: session.id },
        },
      ],
      total: 1,
      total_cost: 0,
      max_total_cost: 10,
    });
    expect(await subscribe(token, session.id)).toMatchObject({
      status: 409,
      body: { message: "subscription already exists" },
    });
  });

  test("GET lists the user's subscriptions with at most one filter; DELETE answers 204 then 404", async () => {
    sim = startTwitchSimulator();
    const token = sim.issueUserToken("cuebotdemo", READER).accessToken;
    const c = connect();
    const created = await subscribe(token, (await welcomeOf(c)).id);
    const id = (created.body as { data: { id: string }[] }).data[0]!.id;
    const list = await callHelix<{ data: { id: string }[]; total: number }>(
      sim,
      token,
      "GET",
      "/eventsub/subscriptions",
      {
        query: { status: "enabled" },
      },
    );
    expect(list.body.data.map((s) => s.id)).toEqual([id]);
    expect(
      (
        await callHelix(sim, token, "GET", "/eventsub/subscriptions", {
          query: { status: "enabled", type: "x" },
        })
      ).status,
    ).toBe(400);
    expect((await callHelix(sim, token, "DELETE", "/eventsub/subscriptions", { query: { id } })).status).toBe(
      204,
    );
    expect((await callHelix(sim, token, "DELETE", "/eventsub/subscriptions", { query: { id } })).status).toBe(
      404,
    );
    // The same API answers without the /helix prefix (twurple and twitch-cli call it there).
    const root = await fetch(`${sim.authUrl}/eventsub/subscriptions`, {
      headers: { "Client-Id": sim.client.id, Authorization: `Bearer ${token}` },
    });
    expect(root.status).toBe(200);
  });
});

describe("Send Chat Message (reference §4, §5, §7.3)", () => {
  const send = (token: string, body: Record<string, unknown>) =>
    callHelix(sim, token, "POST", "/chat/messages", { body });
  const line = (senderId: string, message: string, extra: Record<string, unknown> = {}) => ({
    broadcaster_id: SIM_IDS.demo,
    sender_id: senderId,
    message,
    ...extra,
  });
  const dropOf = (res: { body: unknown }) =>
    (res.body as { data: { is_sent: boolean; drop_reason: { code: string } | null }[] }).data[0]!;

  test("an ordinary sender: one per second, 20 per 30 s, no identical line within 30 s; drops are 200 with is_sent false", async () => {
    const clock = new ManualClock(SIM_EPOCH);
    sim = startTwitchSimulator({ clock });
    const token = sim.issueUserToken("subdave", ["user:write:chat"]).accessToken;
    expect(dropOf(await send(token, line(SIM_IDS.dave, "one")))).toMatchObject({
      is_sent: true,
      drop_reason: null,
    });
    expect(dropOf(await send(token, line(SIM_IDS.dave, "two"))).drop_reason?.code).toBe("msg_ratelimit");
    clock.advance(1000);
    expect(dropOf(await send(token, line(SIM_IDS.dave, " one "))).drop_reason?.code).toBe("msg_duplicate");
    for (let i = 0; i < 17; i++) {
      clock.advance(1000);
      expect(dropOf(await send(token, line(SIM_IDS.dave, `line ${i}`))).is_sent).toBe(true);
    }
    clock.advance(1000);
    // 20 attempts (drops count) in the window: the 21st is refused.
    expect(dropOf(await send(token, line(SIM_IDS.dave, "late"))).drop_reason?.code).toBe("msg_ratelimit");
    clock.advance(30_000);
    expect(dropOf(await send(token, line(SIM_IDS.dave, "fresh"))).is_sent).toBe(true);
  });

  test("the broadcaster and moderators: 100 per 30 s, room modes do not apply; others meet slow and followers-only mode", async () => {
    const clock = new ManualClock(SIM_EPOCH);
    sim = startTwitchSimulator({ clock });
    const own = sim.issueUserToken("cuebotdemo", ["user:write:chat"]).accessToken;
    sim.chat.setRoomMode("cuebotdemo", { slowSeconds: 30, followersOnly: true });
    for (let i = 0; i < 100; i++)
      expect(dropOf(await send(own, line(SIM_IDS.demo, "same"))).is_sent).toBe(true);
    expect(dropOf(await send(own, line(SIM_IDS.demo, "101st"))).drop_reason?.code).toBe("msg_ratelimit");
    const mod = sim.issueUserToken("modbob", ["user:write:chat"]).accessToken;
    expect(dropOf(await send(mod, line(SIM_IDS.bob, "mods skip slow mode"))).is_sent).toBe(true);
    sim.chat.setRole("cuebotdemo", "newbie", "none");
    // A non-follower's own line is refused by the room too, as Twitch's NOTICE msg_followersonly.
    const newbie = sim.chat.trySay({ channel: "cuebotdemo", user: "newbie", text: "hi" });
    expect(newbie.refused?.code).toBe("msg_followersonly");
    const stranger = sim.issueUserToken("newbie", ["user:write:chat"]).accessToken;
    const strangerId = sim.findUser("newbie")!.id;
    expect(dropOf(await send(stranger, line(strangerId, "let me in"))).drop_reason?.code).toBe(
      "msg_followersonly",
    );
  });

  test("bad requests: missing fields 400, for_source_only 400, sender ≠ token 401, no scope 401, over 500 characters 422, banned 403", async () => {
    sim = startTwitchSimulator();
    const token = sim.issueUserToken("subdave", ["user:write:chat"]).accessToken;
    expect((await send(token, { broadcaster_id: SIM_IDS.demo, sender_id: SIM_IDS.dave })).status).toBe(400);
    expect((await send(token, line(SIM_IDS.dave, "x", { for_source_only: true }))).status).toBe(400);
    expect((await send(token, line(SIM_IDS.anna, "x"))).status).toBe(401);
    const readOnly = sim.issueUserToken("subdave", ["user:read:chat"]).accessToken;
    expect((await send(readOnly, line(SIM_IDS.dave, "x"))).status).toBe(401);
    expect((await send(token, line(SIM_IDS.dave, "é".repeat(501)))).status).toBe(422);
    expect((await send(token, line(SIM_IDS.dave, "é".repeat(500)))).status).toBe(200);
    sim.world.bans.push({
      broadcaster_id: SIM_IDS.demo,
      user_id: SIM_IDS.dave,
      moderator_id: SIM_IDS.demo,
      reason: "",
      created_at: "2026-01-01T00:00:00Z",
      expires_at: null,
    });
    expect((await send(token, line(SIM_IDS.dave, "still here?"))).status).toBe(403);
    expect(sim.chat.sent().map((a) => a.status)).toEqual([400, 400, 401, 422, 200, 403]);
  });

  test("broadcaster_id and sender_id may come in the query (as twurple sends them) instead of the body", async () => {
    sim = startTwitchSimulator();
    const token = sim.issueUserToken("subdave", ["user:write:chat"]).accessToken;
    const res = await callHelix(sim, token, "POST", "/chat/messages", {
      query: { broadcaster_id: SIM_IDS.demo, sender_id: SIM_IDS.dave },
      body: { message: "from the query" },
    });
    expect(res.status).toBe(200);
    expect(dropOf(res).is_sent).toBe(true);
    const other = await callHelix(sim, token, "POST", "/chat/messages", {
      query: { broadcaster_id: SIM_IDS.demo, sender_id: SIM_IDS.anna },
      body: { message: "not me" },
    });
    expect(other.status).toBe(401);
  });

  test("a delivered message is echoed to chat, with its own Ratelimit bucket on the answer", async () => {
    sim = startTwitchSimulator();
    const token = sim.issueUserToken("cuebotdemo", READER).accessToken;
    const c = connect();
    await subscribe(token, (await welcomeOf(c)).id);
    const parent = sim.chat.say({ channel: "cuebotdemo", user: "viewer_anna", text: "!coinflip" });
    const res = await send(token, line(SIM_IDS.demo, "Heads!", { reply_parent_message_id: parent }));
    expect(res.headers.get("ratelimit-limit")).toBe("800");
    const sent = dropOf(res) as unknown as { message_id: string; is_sent: boolean };
    expect(sent.is_sent).toBe(true);
    const echo = await waitFor(() =>
      c.frames.find(
        (f) => (f.payload.event as { message_id?: string } | undefined)?.message_id === sent.message_id,
      ),
    );
    expect(echo!.payload.event).toMatchObject({
      chatter_user_id: SIM_IDS.demo,
      message: { text: "Heads!" },
      badges: [{ set_id: "broadcaster" }],
      reply: { parent_message_id: parent },
    });
    expect(sim.chat.lines("cuebotdemo").map((l) => [l.source, l.text])).toEqual([
      ["injected", "!coinflip"],
      ["sent", "Heads!"],
    ]);
  });
});
