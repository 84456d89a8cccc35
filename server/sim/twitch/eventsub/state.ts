import type { ServerWebSocket } from "bun";
import type { Clock } from "../../../core/clock.ts";

/**
 * What the EventSub simulator keeps: sessions (sessions.ts), subscriptions (subscriptions.ts), the
 * reconnect challenges handed out and the notifications sent. Nothing is kept for good: closed
 * sessions, subscriptions disabled an hour ago and reconnect challenges past their grace are forgotten
 * whenever a session or subscription is added (`forgetExpired`), so a demo running for days stays small.
 */

export interface WsData {
  sessionId: string;
}

export type Socket = ServerWebSocket<WsData>;

export type SessionStatus = "connected" | "reconnecting" | "closed";

export interface Session {
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

/** A subscription as kept: with when it was disabled (clock ms), so it can be forgotten an hour later. */
export type SubscriptionRecord = SimSubscriptionInfo & {
  disabledAt: number | null;
  /** Its cost toward max_total_cost (catalog.ts). */
  cost: number;
};

export interface SimSessionInfo {
  id: string;
  status: SessionStatus;
  userId: string | null;
  keepaliveSeconds: number;
  connectedAt: string;
  keepalives: number;
}

/** What the simulator around EventSub provides: time, the socket URL, and the world's answers. */
export interface EventSubEnvironment {
  clock: Clock;
  /** How long one simulated second lasts for the transport's timers (ms). */
  secondMs: number;
  /**
   * How often each socket is pinged, in real ms; a Ping still unanswered two intervals later closes
   * the socket with 4002 (`pingTick` in sessions.ts). Real time, not simulated seconds: it tests the
   * client's socket, not its timers.
   */
  pingMs: number;
  /** The simulator's ws:// base, e.g. "ws://127.0.0.1:1234/ws". */
  wsUrl(): string;
  /** Whether a user is banned in a channel (a banned reader gets 403). */
  isBanned(broadcasterId: string, userId: string): boolean;
  userExists(userId: string): boolean;
  /** Whether a user moderates a channel (a moderator may subscribe to its follows). */
  isModerator(broadcasterId: string, userId: string): boolean;
  /** The world's users, in its order (the alert events' viewers and gift recipients). */
  users(): readonly SimUserRef[];
  /** Ends every token of a user (authorization_revoked). */
  killTokens(userId: string): void;
}

/** A user as events name them: id, login and display name. */
export interface SimUserRef {
  id: string;
  login: string;
  display_name: string;
}

export interface EventSubState {
  env: EventSubEnvironment;
  sessions: Map<string, Session>;
  subscriptions: Map<string, SubscriptionRecord>;
  /**
   * Challenges handed out in session_reconnect → the old session and when the grace ends (real ms,
   * as the grace timer counts). Each is usable once and only within the grace.
   */
  challenges: Map<string, { sessionId: string; expiresAt: number }>;
  /** Notifications sent, by message id, for `redeliver` (the newest `MAX_REMEMBERED_NOTIFICATIONS`, subscriptions.ts). */
  sentNotifications: Map<string, { subscriptionId: string; event: object }>;
  /** The message ids of the last `/_sim/eventsub/emit` (what `redeliver` sends again). */
  lastEmitted: string[];
}

export function newEventSubState(env: EventSubEnvironment): EventSubState {
  return {
    env,
    sessions: new Map(),
    subscriptions: new Map(),
    challenges: new Map(),
    sentNotifications: new Map(),
    lastEmitted: [],
  };
}

export { CHAT_EVENT_TYPES, CHAT_MESSAGE_TYPE } from "./catalog.ts";

/** How long closed sessions and disabled subscriptions stay listed (reference §1.7: about an hour). */
const KEPT_MS = 60 * 60_000;

/** RFC 3339 with nanoseconds, as EventSub stamps its messages. */
export function nanoTimestamp(ms: number): string {
  const extra = String(Math.floor(Math.random() * 1_000_000)).padStart(6, "0");
  return new Date(ms).toISOString().replace(/Z$/, `${extra}Z`);
}

export const enabledOn = (state: EventSubState, sessionId: string) =>
  [...state.subscriptions.values()].filter((s) => s.sessionId === sessionId && s.status === "enabled");

/** Disables a session's enabled subscriptions with `status` (the session closed). */
export function disableAll(state: EventSubState, sessionId: string, status: string): void {
  const now = state.env.clock.now();
  for (const sub of enabledOn(state, sessionId)) {
    sub.status = status;
    sub.disconnectedAt = new Date(now).toISOString();
    sub.disabledAt = now;
  }
}

/** Whether a record that ended at `at` (clock ms) has been kept long enough. */
export const expired = (state: EventSubState, at: number | null) =>
  at !== null && state.env.clock.now() - at >= KEPT_MS;

/**
 * Forgets closed sessions and disabled subscriptions past `KEPT_MS`, sessions refused with 4007
 * (never listed) and challenges past their grace. Called where records are added, so what is kept
 * is bounded by what the last hour created, with no timer to stop.
 */
export function forgetExpired(state: EventSubState): void {
  for (const [id, sub] of state.subscriptions)
    if (expired(state, sub.disabledAt)) state.subscriptions.delete(id);
  for (const [id, session] of state.sessions) {
    const refused = session.invalid && session.status === "closed";
    if (refused || expired(state, session.closedAt)) state.sessions.delete(id);
  }
  const now = performance.now();
  for (const [challenge, entry] of state.challenges)
    if (entry.expiresAt <= now) state.challenges.delete(challenge);
}
