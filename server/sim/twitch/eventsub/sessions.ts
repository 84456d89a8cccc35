import { randomBytes, randomUUID } from "node:crypto";
import type { Server } from "bun";
import {
  disableAll,
  type EventSubState,
  enabledOn,
  forgetExpired,
  nanoTimestamp,
  type Session,
  type SessionStatus,
  type SimSessionInfo,
  type Socket,
  type WsData,
} from "./state.ts";

/**
 * The EventSub WebSocket sessions, as reference/twitch-chat.md §1 and §7.1 describe them: welcome,
 * keepalives, the 10 s subscribe window (4003), inbound traffic (4001), Pings left without a Pong
 * (4002), the reconnect handover (4004, 4007) and close codes. The protocol's timers count simulated
 * seconds of `secondMs`; the Pings alone run on real time (`pingMs`). A closed session lets go of its
 * socket at once.
 */

/** What a test or the demo may close a session with (reference §7.1 `close(session, code)`). */
export type SimCloseCode = 4000 | 4002 | 4005 | 4006 | 1006;
export const SIM_CLOSE_CODES: ReadonlySet<number> = new Set<SimCloseCode>([4000, 4002, 4005, 4006, 1006]);

/** Every frame: `{metadata, payload}` (reference §1.2). */
export interface Envelope {
  metadata: Record<string, string> & { message_type: string };
  payload: object;
}

const WELCOME_WINDOW_S = 10;
const RECONNECT_GRACE_S = 30;
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

function later(state: EventSubState, session: Session, seconds: number, fn: () => void): void {
  session.timers.push(setTimeout(fn, seconds * state.env.secondMs));
}

/** Sends one frame on a session; returns its message id. */
export function frame(
  state: EventSubState,
  session: Session,
  type: string,
  payload: object,
  extra: Record<string, string> = {},
  at = state.env.clock.now(),
): string {
  const message = {
    metadata: {
      message_id: randomUUID(),
      message_type: type,
      message_timestamp: nanoTimestamp(at),
      ...extra,
    },
    payload,
  };
  send(state, session, message);
  return message.metadata.message_id;
}

export function send(state: EventSubState, session: Session, message: Envelope): void {
  if (session.status === "closed" || !session.ws) return;
  session.ws.send(JSON.stringify(message));
  if (RESETS_KEEPALIVE.has(message.metadata.message_type)) armKeepalive(state, session);
}

/**
 * The keepalive goes out exactly when the silence reaches the timeout (reference §1.5), so a client
 * that allows 1.2 × the timeout (twurple, cuebot) never waits longer than the timeout.
 */
function armKeepalive(state: EventSubState, session: Session): void {
  if (session.keepaliveTimer) clearTimeout(session.keepaliveTimer);
  session.keepaliveTimer = setTimeout(() => {
    session.keepaliveTimer = null;
    if (session.status === "connected" && !session.dropKeepalives) {
      session.keepalives++;
      frame(state, session, "session_keepalive", {});
    } else if (session.status !== "closed") armKeepalive(state, session);
  }, session.keepaliveSeconds * state.env.secondMs);
}

/**
 * One Ping tick, every `pingMs` of real time from the socket's opening: a Ping goes out when none
 * waits for its Pong; one still unanswered at the `FAIL_AT_TICK`th tick after it fails the socket
 * (4002). A client that answers in time is not failed by a stall of the event loop, however long.
 */
function pingTick(state: EventSubState, session: Session): void {
  session.pingTimer = null;
  if (session.status === "closed" || !session.ws) return;
  if (session.unansweredTicks === null) {
    session.unansweredTicks = 0;
    session.ws.ping();
  } else if (++session.unansweredTicks >= FAIL_AT_TICK) {
    endSession(state, session, 4002);
    return;
  }
  session.pingTimer = setTimeout(() => pingTick(state, session), state.env.pingMs);
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

/**
 * Marks a session closed: timers stopped, its enabled subscriptions disabled with `status`, its
 * socket let go. Returns the socket to close, or null if the session was closed already.
 */
function markClosed(state: EventSubState, session: Session, status: string): Socket | null {
  if (session.status === "closed") return null;
  clearTimers(session);
  disableAll(state, session.id, status);
  const ws = session.ws;
  session.status = "closed";
  session.closedAt = state.env.clock.now();
  session.ws = null;
  return ws;
}

function endSession(
  state: EventSubState,
  session: Session,
  code: number,
  status = CLOSE_STATUS[code] ?? "websocket_disconnected",
): void {
  const ws = markClosed(state, session, status);
  if (code === 1006) ws?.terminate();
  else ws?.close(code, CLOSE_REASON[code] ?? "");
}

function welcome(state: EventSubState, session: Session): void {
  frame(state, session, "session_welcome", sessionPayload(session, "connected", null));
  if (session.replaces) {
    // Handover: the subscriptions move here (same ids); the old socket stops getting them.
    const old = state.sessions.get(session.replaces);
    for (const sub of state.subscriptions.values()) {
      if (sub.sessionId === session.replaces && sub.status === "enabled") sub.sessionId = session.id;
    }
    session.userId = old?.userId ?? null;
    return;
  }
  later(state, session, WELCOME_WINDOW_S, () => {
    if (session.status !== "closed" && enabledOn(state, session.id).length === 0 && session.userId === null) {
      endSession(state, session, 4003);
    }
  });
}

/** Bun's WebSocket handlers for `/ws`. */
export function websocketHandlers(state: EventSubState) {
  const sessionOf = (ws: Socket) => state.sessions.get(ws.data.sessionId);
  return {
    open(ws: Socket) {
      const session = sessionOf(ws);
      if (!session) return;
      // Bun hands the socket to `open`; the session learns it here.
      session.ws = ws;
      if (session.invalid) endSession(state, session, 4007);
      else {
        pingTick(state, session);
        welcome(state, session);
      }
    },
    message(ws: Socket) {
      // Clients may send nothing but Pong (reference §1.1).
      const session = sessionOf(ws);
      if (session) endSession(state, session, 4001);
    },
    close(ws: Socket, code: number) {
      const session = sessionOf(ws);
      // A client that leaves after its handover keeps its subscriptions on the new session.
      if (session) markClosed(state, session, CLOSE_STATUS[code] ?? "websocket_disconnected");
    },
    pong(ws: Socket) {
      const session = sessionOf(ws);
      if (session) session.unansweredTicks = null;
    },
    // The simulator sends its own Pings (pingTick) so that a missing Pong closes with 4002.
    sendPings: false,
    idleTimeout: 120,
  };
}

/** Upgrades `/ws` requests; answers an error Response for a bad reconnect, undefined when upgraded. */
export function upgrade(
  state: EventSubState,
  request: Request,
  server: Server<WsData>,
): Response | undefined {
  forgetExpired(state);
  const url = new URL(request.url);
  const id = randomBytes(12).toString("hex");
  let replaces: string | null = null;
  const challenge = url.searchParams.get("challenge");
  if (challenge !== null) {
    const old = state.challenges.get(challenge)?.sessionId;
    state.challenges.delete(challenge);
    if (!old || url.searchParams.get("id") !== old) {
      // Upgraded, then closed with 4007 at once: the client sees the code as from Twitch.
      // Registered before the upgrade: Bun may call `open` from inside it.
      state.sessions.set(id, { ...newSession(state, id, 10, null), invalid: true });
      if (!server.upgrade(request, { data: { sessionId: id } })) {
        state.sessions.delete(id);
        return new Response("expected a WebSocket upgrade", { status: 400 });
      }
      return undefined;
    }
    replaces = old;
  }
  const asked = Number.parseInt(url.searchParams.get("keepalive_timeout_seconds") ?? "", 10);
  const keepalive = Number.isFinite(asked) ? Math.min(600, Math.max(10, asked)) : 10;
  const session = newSession(
    state,
    id,
    replaces ? (state.sessions.get(replaces)?.keepaliveSeconds ?? keepalive) : keepalive,
    replaces,
  );
  state.sessions.set(id, session);
  if (!server.upgrade(request, { data: { sessionId: id } })) {
    state.sessions.delete(id);
    return new Response("expected a WebSocket upgrade", { status: 400 });
  }
  return undefined;
}

function newSession(
  state: EventSubState,
  id: string,
  keepaliveSeconds: number,
  replaces: string | null,
): Session {
  return {
    id,
    ws: null,
    status: "connected" as SessionStatus,
    closedAt: null,
    userId: null,
    keepaliveSeconds,
    connectedAt: nanoTimestamp(state.env.clock.now()),
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

/** Sends session_reconnect to one session, or to every connected one; returns the sessions moving. */
export function reconnect(state: EventSubState, sessionId?: string): string[] {
  forgetExpired(state);
  const moving: string[] = [];
  for (const session of state.sessions.values()) {
    if (session.status !== "connected" || (sessionId && session.id !== sessionId)) continue;
    const challenge = randomBytes(9).toString("hex");
    const expiresAt = performance.now() + RECONNECT_GRACE_S * state.env.secondMs;
    state.challenges.set(challenge, { sessionId: session.id, expiresAt });
    const url = `${state.env.wsUrl()}?challenge=${challenge}&id=${session.id}`;
    frame(state, session, "session_reconnect", sessionPayload(session, "reconnecting", url));
    session.status = "reconnecting";
    later(state, session, RECONNECT_GRACE_S, () => {
      if (session.status === "closed") return;
      // Still open: a client that moved loses nothing; one that never moved loses its subscriptions.
      endSession(state, session, 4004, "websocket_failed_to_reconnect");
    });
    moving.push(session.id);
  }
  return moving;
}

/** Closes a session as Twitch would (close code, subscriptions disabled); false if unknown. */
export function closeSession(state: EventSubState, sessionId: string, code: SimCloseCode): boolean {
  const session = state.sessions.get(sessionId);
  if (!session || session.status === "closed") return false;
  endSession(state, session, code);
  return true;
}

/** Suppresses (or restores) keepalives on one session or all; returns how many sessions changed. */
export function dropKeepalives(state: EventSubState, drop: boolean, sessionId?: string): number {
  let changed = 0;
  for (const session of state.sessions.values()) {
    if (sessionId && session.id !== sessionId) continue;
    session.dropKeepalives = drop;
    changed++;
  }
  return changed;
}

export function sessionList(state: EventSubState): SimSessionInfo[] {
  return [...state.sessions.values()]
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

/** The simulator stops: every socket is closed with 1001 and every timer cleared. */
export function stopSessions(state: EventSubState): void {
  for (const session of state.sessions.values()) {
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
}
