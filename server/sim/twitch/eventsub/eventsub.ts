import { randomBytes, randomUUID } from "node:crypto";
import type { Server, ServerWebSocket } from "bun";
import type { Clock } from "../core/clock.ts";
import { type HelixCall, type HelixRoute, helixError, json, readJsonObject } from "./helix.ts";

/**
 * The EventSub WebSocket transport and its subscription API, as reference/twitch-chat.md §1, §2 and
 * §7.1–7.2 describe them: welcome, keepalives, the 10 s subscribe window (4003), inbound traffic
 * (4001), Pings left without a Pong (4002), the reconnect handover (4004, 4007), revocation and close
 * codes. Only `channel.chat.message` v1 can be subscribed (the type cuebot uses). The protocol's
 * timers count simulated seconds of `secondMs`; the Pings alone run on real time (`pingMs`). The
 * knobs are functions for tests in process and `/_sim/eventsub/*` over HTTP (`handleSimHttp`).
 * Nothing is kept for good: a closed session lets go of its socket at once, and closed sessions,
 * subscriptions disabled an hour ago and reconnect challenges past their grace are forgotten
 * whenever a session or subscription is added (`forgetExpired`), so a demo running for days stays small.
 */

export interface WsData {
  sessionId: string;
}

type Socket = ServerWebSocket<WsData>;

export type SessionStatus = "connected" | "reconnecting" | "closed";

/** What a test or the demo may close a session with (reference §7.1 `close(session, code)`). */
export type SimCloseCode = 4000 | 4002 | 4005 | 4006 | 1006;
const SIM_CLOSE_CODES: ReadonlySet<number> = new Set<SimCloseCode>([4000, 4002, 4005, 4006, 1006]);

/** Every frame: `{metadata, payload}` (reference §1.2). */
interface Envelope {
  metadata: Record<string, string> & { message_type: string };
  payload: object;
}

interface Session {
  id: string;
  /** Null before Bun opens the socket and once the session is closed (nothing holds a dead socket). */
  ws: Socket | null;
  status: SessionStatus;
  /** When the session closed (clock ms): it stays listed for `KEPT_MS`, then it is forgotten. */
  closedAt: number | null;
  /** The user whose subscriptions use this session (set by the first subscription). */
  userId: string | null;
  keepaliveSeconds: number;
  connectedAt: string;
  dropKeepalives: boolean;
  /** Keepalives sent on this session (tests wait for one). */
  keepalives: number;
  /** One-shot timers: the subscribe window and the reconnect grace. */
  timers: ReturnType<typeof setTimeout>[];
  /** Fires when the silence reaches the keepalive timeout; re-armed by every counted frame. */
  keepaliveTimer: ReturnType<typeof setTimeout> | null;
  pingTimer: ReturnType<typeof setTimeout> | null;
  /** Ping ticks passed since the Ping still waiting for its Pong went out; null when none waits. */
  unansweredTicks: number | null;
  /** Set on the new session of a handover: the session it replaces. */
  replaces: string | null;
  /** A reconnect with a reused or altered URL: closed with 4007 as soon as it opens. */
  invalid: boolean;
}

export interface SimSubscriptionInfo {
  id: string;
  status: string;
  type: string;
  version: string;
  condition: Record<string, string>;
  sessionId: string;
  userId: string;
  createdAt: string;
  disconnectedAt: string | null;
}

export interface SimSessionInfo {
  id: string;
  status: SessionStatus;
  userId: string | null;
  keepaliveSeconds: number;
  connectedAt: string;
  keepalives: number;
}

/** What the subscription endpoints need to know of the token (resolved by the Helix middleware). */
export interface EventSubEnvironment {
  clock: Clock;
  /** How long one simulated second lasts for the transport's timers (ms). */
  secondMs: number;
  /**
   * How often each socket is pinged, in real ms; a Ping still unanswered two intervals later closes
   * the socket with 4002 (`pingTick`). Real time, not simulated seconds: it tests the client's socket,
   * not its timers.
   */
  pingMs: number;
  /** The simulator's ws:// base, e.g. "ws://127.0.0.1:1234/ws". */
  wsUrl(): string;
  /** Whether a user is banned in a channel (a banned reader gets 403). */
  isBanned(broadcasterId: string, userId: string): boolean;
  userExists(userId: string): boolean;
  /** Ends every token of a user (authorization_revoked). */
  killTokens(userId: string): void;
}

export const CHAT_MESSAGE_TYPE = "channel.chat.message";
const MAX_PER_SOCKET = 300;
const MAX_SOCKETS_PER_USER = 3;
const WELCOME_WINDOW_S = 10;
const RECONNECT_GRACE_S = 30;
/** How long closed sessions and disabled subscriptions stay listed (reference §1.7: about an hour). */
const KEPT_MS = 60 * 60_000;
/**
 * The Ping tick at which a Ping still without its Pong fails the socket. Not the first tick after it:
 * the simulator and a client in the same process share one event loop, and after a stall (GC, a
 * starved CI machine) the tick can run before the loop reads a Pong that arrived in time. The ticks are
 * a chain of timeouts, so between two of them the loop always turns and reads what arrived.
 */
const FAIL_AT_TICK = 2;
/**
 * The frames that restart the keepalive window (reference §1.5: notifications and keepalives, and
 * the welcome that opens it). A revocation or session_reconnect does not: twurple does not count
 * them either, so they must not push the next keepalive later than it expects.
 */
const RESETS_KEEPALIVE = new Set(["session_welcome", "session_keepalive", "notification"]);

/** RFC 3339 with nanoseconds, as EventSub stamps its messages. */
export function nanoTimestamp(ms: number): string {
  const extra = String(Math.floor(Math.random() * 1_000_000)).padStart(6, "0");
  return new Date(ms).toISOString().replace(/Z$/, `${extra}Z`);
}

const CLOSE_STATUS: Record<number, string> = {
  4000: "websocket_internal_error",
  4001: "websocket_received_inbound_traffic",
  4002: "websocket_failed_ping_pong",
  4003: "websocket_connection_unused",
  4004: "websocket_failed_to_reconnect",
  4005: "websocket_network_timeout",
  4006: "websocket_network_error",
  1006: "websocket_disconnected",
};

const CLOSE_REASON: Record<number, string> = {
  4000: "internal server error",
  4001: "sent inbound traffic",
  4002: "failed ping pong",
  4003: "connection unused",
  4004: "reconnect grace time expired",
  4005: "network timeout",
  4006: "network error",
  4007: "invalid reconnect",
};

export function createEventSub(env: EventSubEnvironment) {
  const { clock, secondMs } = env;
  const sessions = new Map<string, Session>();
  const subscriptions = new Map<string, SimSubscriptionInfo & { disabledAt: number | null }>();
  /**
   * Challenges handed out in session_reconnect → the old session and when the grace ends (real ms,
   * as the grace timer counts). Each is usable once and only within the grace.
   */
  const challenges = new Map<string, { sessionId: string; expiresAt: number }>();
  /** Notifications sent, by message id, for `redeliver`. */
  const sentNotifications = new Map<string, { subscriptionId: string; event: object }>();

  const later = (session: Session, seconds: number, fn: () => void) => {
    session.timers.push(setTimeout(fn, seconds * secondMs));
  };

  function frame(
    session: Session,
    type: string,
    payload: object,
    extra: Record<string, string> = {},
    at = clock.now(),
  ) {
    const message = {
      metadata: {
        message_id: randomUUID(),
        message_type: type,
        message_timestamp: nanoTimestamp(at),
        ...extra,
      },
      payload,
    };
    send(session, message);
    return message.metadata.message_id;
  }

  function send(session: Session, message: Envelope): void {
    if (session.status === "closed" || !session.ws) return;
    session.ws.send(JSON.stringify(message));
    if (RESETS_KEEPALIVE.has(message.metadata.message_type)) armKeepalive(session);
  }

  /**
   * The keepalive goes out exactly when the silence reaches the timeout (reference §1.5), so a client
   * that allows 1.2 × the timeout (twurple, cuebot) never waits longer than the timeout.
   */
  function armKeepalive(session: Session): void {
    if (session.keepaliveTimer) clearTimeout(session.keepaliveTimer);
    session.keepaliveTimer = setTimeout(() => {
      session.keepaliveTimer = null;
      if (session.status === "connected" && !session.dropKeepalives) {
        session.keepalives++;
        frame(session, "session_keepalive", {});
      } else if (session.status !== "closed") armKeepalive(session);
    }, session.keepaliveSeconds * secondMs);
  }

  /**
   * One Ping tick, every `pingMs` of real time from the socket's opening: a Ping goes out when none
   * waits for its Pong; one still unanswered at the `FAIL_AT_TICK`th tick after it fails the socket
   * (4002). A client that answers in time is not failed by a stall of the event loop, however long.
   */
  function pingTick(session: Session): void {
    session.pingTimer = null;
    if (session.status === "closed" || !session.ws) return;
    if (session.unansweredTicks === null) {
      session.unansweredTicks = 0;
      session.ws.ping();
    } else if (++session.unansweredTicks >= FAIL_AT_TICK) {
      endSession(session, 4002);
      return;
    }
    session.pingTimer = setTimeout(() => pingTick(session), env.pingMs);
  }

  function clearTimers(session: Session): void {
    for (const t of session.timers) clearTimeout(t);
    session.timers = [];
    if (session.keepaliveTimer) clearTimeout(session.keepaliveTimer);
    if (session.pingTimer) clearTimeout(session.pingTimer);
    session.keepaliveTimer = null;
    session.pingTimer = null;
  }

  const sessionPayload = (session: Session, status: string, reconnectUrl: string | null) => ({
    session: {
      id: session.id,
      status,
      connected_at: session.connectedAt,
      keepalive_timeout_seconds: status === "reconnecting" ? null : session.keepaliveSeconds,
      reconnect_url: reconnectUrl,
      recovery_url: null,
    },
  });

  const enabledOn = (sessionId: string) =>
    [...subscriptions.values()].filter((s) => s.sessionId === sessionId && s.status === "enabled");

  function disableAll(sessionId: string, status: string): void {
    const now = clock.now();
    for (const sub of enabledOn(sessionId)) {
      sub.status = status;
      sub.disconnectedAt = new Date(now).toISOString();
      sub.disabledAt = now;
    }
  }

  /**
   * Marks a session closed: timers stopped, its enabled subscriptions disabled with `status`, its
   * socket let go. Returns the socket to close, or null if the session was closed already.
   */
  function markClosed(session: Session, status: string): Socket | null {
    if (session.status === "closed") return null;
    clearTimers(session);
    disableAll(session.id, status);
    const ws = session.ws;
    session.status = "closed";
    session.closedAt = clock.now();
    session.ws = null;
    return ws;
  }

  function endSession(
    session: Session,
    code: number,
    status = CLOSE_STATUS[code] ?? "websocket_disconnected",
  ): void {
    const ws = markClosed(session, status);
    if (code === 1006) ws?.terminate();
    else ws?.close(code, CLOSE_REASON[code] ?? "");
  }

  /** Whether a record that ended at `at` (clock ms) has been kept long enough. */
  const expired = (at: number | null) => at !== null && clock.now() - at >= KEPT_MS;

  /**
   * Forgets closed sessions and disabled subscriptions past `KEPT_MS`, sessions refused with 4007
   * (never listed) and challenges past their grace. Called where records are added, so what is kept
   * is bounded by what the last hour created, with no timer to stop.
   */
  function forgetExpired(): void {
    for (const [id, sub] of subscriptions) if (expired(sub.disabledAt)) subscriptions.delete(id);
    for (const [id, session] of sessions) {
      const refused = session.invalid && session.status === "closed";
      if (refused || expired(session.closedAt)) sessions.delete(id);
    }
    const now = performance.now();
    for (const [challenge, entry] of challenges) if (entry.expiresAt <= now) challenges.delete(challenge);
  }

  function welcome(session: Session): void {
    frame(session, "session_welcome", sessionPayload(session, "connected", null));
    if (session.replaces) {
      // Handover: the subscriptions move here (same ids); the old socket stops getting them.
      const old = sessions.get(session.replaces);
      for (const sub of subscriptions.values()) {
        if (sub.sessionId === session.replaces && sub.status === "enabled") sub.sessionId = session.id;
      }
      session.userId = old?.userId ?? null;
      return;
    }
    later(session, WELCOME_WINDOW_S, () => {
      if (session.status !== "closed" && enabledOn(session.id).length === 0 && session.userId === null) {
        endSession(session, 4003);
      }
    });
  }

  const websocket = {
    open(ws: Socket) {
      const session = sessions.get(ws.data.sessionId);
      if (!session) return;
      if (session.invalid) endSession(session, 4007);
      else welcome(session);
    },
    message(ws: Socket) {
      // Clients may send nothing but Pong (reference §1.1).
      const session = sessions.get(ws.data.sessionId);
      if (session) endSession(session, 4001);
    },
    close(ws: Socket, code: number) {
      const session = sessions.get(ws.data.sessionId);
      // A client that leaves after its handover keeps its subscriptions on the new session.
      if (session) markClosed(session, CLOSE_STATUS[code] ?? "websocket_disconnected");
    },
    pong(ws: Socket) {
      const session = sessions.get(ws.data.sessionId);
      if (session) session.unansweredTicks = null;
    },
    // The simulator sends its own Pings (pingTick) so that a missing Pong closes with 4002.
    sendPings: false,
    idleTimeout: 120,
  };

  /** Upgrades `/ws` requests; answers an error Response for a bad reconnect, undefined when upgraded. */
  function upgrade(request: Request, server: Server<WsData>): Response | undefined {
    forgetExpired();
    const url = new URL(request.url);
    const id = randomBytes(12).toString("hex");
    let replaces: string | null = null;
    const challenge = url.searchParams.get("challenge");
    if (challenge !== null) {
      const old = challenges.get(challenge)?.sessionId;
      challenges.delete(challenge);
      if (!old || url.searchParams.get("id") !== old) {
        // Upgraded, then closed with 4007 at once: the client sees the code as from Twitch.
        // Registered before the upgrade: Bun may call `open` from inside it.
        sessions.set(id, { ...newSession(id, 10, null), invalid: true });
        if (!server.upgrade(request, { data: { sessionId: id } })) {
          sessions.delete(id);
          return new Response("expected a WebSocket upgrade", { status: 400 });
        }
        return undefined;
      }
      replaces = old;
    }
    const asked = Number.parseInt(url.searchParams.get("keepalive_timeout_seconds") ?? "", 10);
    const keepalive = Number.isFinite(asked) ? Math.min(600, Math.max(10, asked)) : 10;
    const session = newSession(
      id,
      replaces ? (sessions.get(replaces)?.keepaliveSeconds ?? keepalive) : keepalive,
      replaces,
    );
    sessions.set(id, session);
    if (!server.upgrade(request, { data: { sessionId: id } })) {
      sessions.delete(id);
      return new Response("expected a WebSocket upgrade", { status: 400 });
    }
    return undefined;
  }

  function newSession(id: string, keepaliveSeconds: number, replaces: string | null): Session {
    return {
      id,
      ws: null,
      status: "connected" as SessionStatus,
      closedAt: null,
      userId: null,
      keepaliveSeconds,
      connectedAt: nanoTimestamp(clock.now()),
      dropKeepalives: false,
      keepalives: 0,
      timers: [],
      keepaliveTimer: null,
      pingTimer: null,
      unansweredTicks: null,
      replaces,
      invalid: false,
    };
  }

  /** Bun hands the socket to `open`; the session learns it there (see `attach`). */
  function attach(ws: Socket): void {
    const session = sessions.get(ws.data.sessionId);
    if (!session) return;
    session.ws = ws;
    if (!session.invalid) pingTick(session);
  }

  function publicSub(sub: SimSubscriptionInfo) {
    const session = sessions.get(sub.sessionId);
    return {
      id: sub.id,
      status: sub.status,
      type: sub.type,
      version: sub.version,
      condition: sub.condition,
      created_at: sub.createdAt,
      transport: {
        method: "websocket",
        session_id: sub.sessionId,
        connected_at: session?.connectedAt ?? sub.createdAt,
        ...(sub.disconnectedAt ? { disconnected_at: sub.disconnectedAt } : {}),
      },
      cost: 0,
    };
  }

  const visible = (sub: SimSubscriptionInfo & { disabledAt: number | null }) => !expired(sub.disabledAt);

  const totals = (userId: string) => ({
    total: [...subscriptions.values()].filter((s) => s.userId === userId && s.status === "enabled").length,
    total_cost: 0,
    max_total_cost: 10,
  });

  async function create(call: HelixCall): Promise<Response> {
    const userId = call.caller.userId as string;
    let body: {
      type?: unknown;
      version?: unknown;
      condition?: Record<string, unknown>;
      transport?: { method?: unknown; session_id?: unknown };
    };
    try {
      body = (await call.request.json()) as typeof body;
    } catch {
      return helixError(400, "The body of the request is not valid JSON.");
    }
    if (typeof body !== "object" || body === null)
      return helixError(400, "The body of the request is not valid JSON.");
    if (body.type !== CHAT_MESSAGE_TYPE || body.version !== "1") {
      return helixError(400, "The combination of values in the type and version fields is not valid");
    }
    const condition = body.condition ?? {};
    const broadcaster = condition.broadcaster_user_id;
    const reader = condition.user_id;
    if (typeof broadcaster !== "string" || typeof reader !== "string") {
      return helixError(400, "The condition field is missing broadcaster_user_id or user_id.");
    }
    if (body.transport?.method !== "websocket" || typeof body.transport.session_id !== "string") {
      return helixError(400, "The transport field is not valid: method websocket needs session_id.");
    }
    if (
      !call.caller.scopes.includes("user:read:chat") ||
      reader !== userId ||
      env.isBanned(broadcaster, reader)
    ) {
      return helixError(403, "subscription missing proper authorization");
    }
    if (!env.userExists(broadcaster)) return helixError(400, "The broadcaster_user_id is not a valid user.");
    const session = sessions.get(body.transport.session_id);
    if (session?.status !== "connected" || (session.userId !== null && session.userId !== userId)) {
      return helixError(400, "websocket transport session does not exist or has already disconnected");
    }
    const duplicate = [...subscriptions.values()].some(
      (s) =>
        s.status === "enabled" &&
        s.userId === userId &&
        s.type === CHAT_MESSAGE_TYPE &&
        s.condition.broadcaster_user_id === broadcaster &&
        s.condition.user_id === reader,
    );
    if (duplicate) return helixError(409, "subscription already exists");
    forgetExpired();
    if (enabledOn(session.id).length >= MAX_PER_SOCKET) {
      return helixError(429, "websocket transports are limited to 300 enabled subscriptions");
    }
    const sockets = new Set(
      [...subscriptions.values()]
        .filter((s) => s.userId === userId && s.status === "enabled")
        .map((s) => s.sessionId),
    );
    if (!sockets.has(session.id) && sockets.size >= MAX_SOCKETS_PER_USER) {
      return helixError(429, "a user may have at most 3 websocket transports with enabled subscriptions");
    }
    session.userId = userId;
    const sub = {
      id: randomUUID(),
      status: "enabled",
      type: CHAT_MESSAGE_TYPE,
      version: "1",
      condition: { broadcaster_user_id: broadcaster, user_id: reader },
      sessionId: session.id,
      userId,
      createdAt: new Date(clock.now()).toISOString(),
      disconnectedAt: null,
      disabledAt: null,
    };
    subscriptions.set(sub.id, sub);
    return json(202, { data: [publicSub(sub)], ...totals(userId) });
  }

  function list(call: HelixCall): Response {
    const userId = call.caller.userId as string;
    const filters = ["status", "type", "user_id", "subscription_id"].filter((f) => call.query.has(f));
    if (filters.length > 1)
      return helixError(400, "Only one of status, type, user_id and subscription_id may be given.");
    const q = call.query;
    const rows = [...subscriptions.values()]
      .filter((s) => s.userId === userId && visible(s))
      .filter((s) => !q.has("status") || s.status === q.get("status"))
      .filter((s) => !q.has("type") || s.type === q.get("type"))
      .filter((s) => !q.has("user_id") || s.condition.user_id === q.get("user_id"))
      .filter((s) => !q.has("subscription_id") || s.id === q.get("subscription_id"));
    const after = q.get("after");
    const start = after ? Math.max(0, rows.findIndex((s) => s.id === after) + 1) : 0;
    const page = rows.slice(start, start + 100);
    const cursor = start + 100 < rows.length ? page.at(-1)?.id : undefined;
    return json(200, { data: page.map(publicSub), ...totals(userId), pagination: cursor ? { cursor } : {} });
  }

  function remove(call: HelixCall): Response {
    const id = call.query.get("id");
    if (!id) return helixError(400, 'Missing required parameter "id"');
    const sub = subscriptions.get(id);
    if (!sub || sub.userId !== call.caller.userId) return helixError(404, "subscription not found");
    subscriptions.delete(id);
    return new Response(null, { status: 204 });
  }

  const routes: [string, HelixRoute][] = [
    ["POST /eventsub/subscriptions", { userToken: true, scopes: [], handle: create }],
    ["GET /eventsub/subscriptions", { userToken: true, scopes: [], handle: list }],
    ["DELETE /eventsub/subscriptions", { userToken: true, scopes: [], handle: remove }],
  ];

  /**
   * Delivers an event to every enabled subscription of `type` whose condition's broadcaster matches;
   * returns how many sessions got it. `at` stamps the message (an old one for stale tests).
   */
  function notify(type: string, broadcasterId: string, event: object, at = clock.now()): number {
    let delivered = 0;
    for (const sub of subscriptions.values()) {
      if (
        sub.status !== "enabled" ||
        sub.type !== type ||
        sub.condition.broadcaster_user_id !== broadcasterId
      )
        continue;
      const session = sessions.get(sub.sessionId);
      if (!session || session.status === "closed") continue;
      const id = frame(
        session,
        "notification",
        { subscription: publicSub(sub), event },
        { subscription_type: sub.type, subscription_version: sub.version },
        at,
      );
      sentNotifications.set(id, { subscriptionId: sub.id, event });
      if (sentNotifications.size > 5000)
        sentNotifications.delete(sentNotifications.keys().next().value as string);
      delivered++;
    }
    return delivered;
  }

  /** The notification frames that carried a chat message id (for `redeliver`). */
  function redeliverChat(chatMessageId: string): void {
    for (const [messageId, sent] of sentNotifications) {
      if ((sent.event as { message_id?: string }).message_id !== chatMessageId) continue;
      const sub = subscriptions.get(sent.subscriptionId);
      const session = sub ? sessions.get(sub.sessionId) : undefined;
      if (!sub || !session || sub.status !== "enabled") continue;
      send(session, {
        metadata: {
          message_id: messageId,
          message_type: "notification",
          message_timestamp: nanoTimestamp(clock.now()),
          subscription_type: sub.type,
          subscription_version: sub.version,
        },
        payload: { subscription: publicSub(sub), event: sent.event },
      });
    }
  }

  /** Sends session_reconnect to one session, or to every connected one; returns the sessions moving. */
  function reconnect(sessionId?: string): string[] {
    forgetExpired();
    const moving: string[] = [];
    for (const session of sessions.values()) {
      if (session.status !== "connected" || (sessionId && session.id !== sessionId)) continue;
      const challenge = randomBytes(9).toString("hex");
      const expiresAt = performance.now() + RECONNECT_GRACE_S * secondMs;
      challenges.set(challenge, { sessionId: session.id, expiresAt });
      const url = `${env.wsUrl()}?challenge=${challenge}&id=${session.id}`;
      frame(session, "session_reconnect", sessionPayload(session, "reconnecting", url));
      session.status = "reconnecting";
      later(session, RECONNECT_GRACE_S, () => {
        if (session.status === "closed") return;
        // Still open: a client that moved loses nothing; one that never moved loses its subscriptions.
        endSession(session, 4004, "websocket_failed_to_reconnect");
      });
      moving.push(session.id);
    }
    return moving;
  }

  /** Revokes a user's enabled subscriptions (a `revocation` frame each); returns how many. */
  function revoke(userId: string, reason = "authorization_revoked"): number {
    let revoked = 0;
    for (const sub of subscriptions.values()) {
      if (sub.userId !== userId || sub.status !== "enabled") continue;
      revoked++;
      sub.status = reason;
      sub.disabledAt = clock.now();
      const session = sessions.get(sub.sessionId);
      if (session) {
        frame(
          session,
          "revocation",
          { subscription: publicSub(sub) },
          { subscription_type: sub.type, subscription_version: sub.version },
        );
      }
    }
    if (reason === "authorization_revoked") env.killTokens(userId);
    return revoked;
  }

  /** Closes a session as Twitch would (close code, subscriptions disabled); false if unknown. */
  function close(sessionId: string, code: SimCloseCode): boolean {
    const session = sessions.get(sessionId);
    if (!session || session.status === "closed") return false;
    endSession(session, code);
    return true;
  }

  /** Suppresses (or restores) keepalives on one session or all; returns how many sessions changed. */
  function dropKeepalives(drop: boolean, sessionId?: string): number {
    let changed = 0;
    for (const session of sessions.values()) {
      if (sessionId && session.id !== sessionId) continue;
      session.dropKeepalives = drop;
      changed++;
    }
    return changed;
  }

  function sessionList(): SimSessionInfo[] {
    return [...sessions.values()]
      .filter((s) => !s.invalid)
      .map((s) => ({
        id: s.id,
        status: s.status,
        userId: s.userId,
        keepaliveSeconds: s.keepaliveSeconds,
        connectedAt: s.connectedAt,
        keepalives: s.keepalives,
      }));
  }

  function subscriptionList(): SimSubscriptionInfo[] {
    return [...subscriptions.values()].map(({ disabledAt: _, ...s }) => ({
      ...s,
      condition: { ...s.condition },
    }));
  }

  const optionalString = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);

  const CONTROLS = {
    reconnect: (body: Record<string, unknown>) =>
      json(200, { reconnecting: reconnect(optionalString(body.session_id)) }),
    revoke(body: Record<string, unknown>): Response {
      const userId = optionalString(body.user_id);
      if (!userId) return json(400, { error: "user_id is required" });
      return json(200, { revoked: revoke(userId, optionalString(body.reason)) });
    },
    close(body: Record<string, unknown>): Response {
      const sessionId = optionalString(body.session_id);
      const code = body.code;
      if (!sessionId || typeof code !== "number" || !SIM_CLOSE_CODES.has(code)) {
        return json(400, {
          error: `session_id and code (one of ${[...SIM_CLOSE_CODES].join(", ")}) are required`,
        });
      }
      return close(sessionId, code as SimCloseCode)
        ? json(200, { closed: sessionId, code })
        : json(404, { error: "no such open session" });
    },
    keepalives(body: Record<string, unknown>): Response {
      if (typeof body.drop !== "boolean") return json(400, { error: "drop (boolean) is required" });
      return json(200, { sessions: dropKeepalives(body.drop, optionalString(body.session_id)) });
    },
  };

  /**
   * `/_sim/eventsub/*`: the transport's knobs over loopback HTTP, for the demo and for clients in
   * other processes (reference §7.4). Null when the path is not one of them.
   */
  async function handleSimHttp(request: Request, url: URL): Promise<Response | null> {
    if (!url.pathname.startsWith("/_sim/eventsub/")) return null;
    const action = url.pathname.slice("/_sim/eventsub/".length);
    if (request.method === "GET") {
      if (action === "sessions") return json(200, { data: sessionList() });
      if (action === "subscriptions") return json(200, { data: subscriptionList() });
      return null;
    }
    if (request.method !== "POST" || !Object.hasOwn(CONTROLS, action)) return null;
    const body = await readJsonObject(request);
    if (!body) return json(400, { error: "body must be a JSON object" });
    return CONTROLS[action as keyof typeof CONTROLS](body);
  }

  return {
    websocket: {
      ...websocket,
      open(ws: Socket) {
        attach(ws);
        websocket.open(ws);
      },
    },
    upgrade,
    routes,
    notify,
    redeliverChat,
    reconnect,
    revoke,
    close,
    dropKeepalives,
    sessions: sessionList,
    subscriptions: subscriptionList,
    handleSimHttp,
    stop(): void {
      for (const session of sessions.values()) {
        clearTimers(session);
        const ws = session.ws;
        session.status = "closed";
        session.ws = null;
        try {
          ws?.close(1001, "simulator stopped");
        } catch {
          // already gone
        }
      }
    },
  };
}

export type EventSubSim = ReturnType<typeof createEventSub>;
