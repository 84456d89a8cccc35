import { randomUUID } from "node:crypto";
import { helixError, json } from "../helix/http.ts";
import type { HelixCall, HelixRouteList } from "../helix/route.ts";
import { kindOf, namedUsers, readCondition } from "./catalog.ts";
import { frame, send } from "./sessions.ts";
import {
  type EventSubState,
  enabledOn,
  expired,
  forgetExpired,
  nanoTimestamp,
  type SimSubscriptionInfo,
  type SubscriptionRecord,
} from "./state.ts";

/**
 * EventSub subscriptions (reference/twitch-chat.md §2, §7.2): the Helix subscription API with its
 * limits, the notifications they receive, redelivery and revocation. The types that can be subscribed
 * and who may subscribe to them are in catalog.ts.
 */

const MAX_PER_SOCKET = 300;
const MAX_SOCKETS_PER_USER = 3;
/** Websocket subscriptions cost 0 when the token user is the one the condition names (reference §0). */
const MAX_TOTAL_COST = 10;
/**
 * Notifications kept for `redeliver`, newest last. Redelivery is of what was just sent (tests, the
 * alert path's at-least-once check), and the demo runs for days in cuebot's process: at 5,000 the
 * demo's chat was still filling the Map after an hour (~2 KB of heap a notification), which read as
 * cuebot growing.
 */
export const MAX_REMEMBERED_NOTIFICATIONS = 500;

/** Create, Get and Delete EventSub Subscription, routed with the Helix endpoints. */
export function subscriptionApiRoutes(state: EventSubState): HelixRouteList {
  return [
    ["POST /eventsub/subscriptions", { userToken: true, scopes: [], handle: (call) => create(state, call) }],
    ["GET /eventsub/subscriptions", { userToken: true, scopes: [], handle: (call) => list(state, call) }],
    [
      "DELETE /eventsub/subscriptions",
      { userToken: true, scopes: [], handle: (call) => remove(state, call) },
    ],
  ];
}

function publicSub(state: EventSubState, sub: SubscriptionRecord) {
  const session = state.sessions.get(sub.sessionId);
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
    cost: sub.cost,
  };
}

const visible = (state: EventSubState, sub: SubscriptionRecord) => !expired(state, sub.disabledAt);

const enabledOf = (state: EventSubState, userId: string) =>
  [...state.subscriptions.values()].filter((s) => s.userId === userId && s.status === "enabled");

const totals = (state: EventSubState, userId: string) => ({
  total: enabledOf(state, userId).length,
  total_cost: enabledOf(state, userId).reduce((sum, s) => sum + s.cost, 0),
  max_total_cost: MAX_TOTAL_COST,
});

interface CreateBody {
  type?: unknown;
  version?: unknown;
  condition?: unknown;
  transport?: { method?: unknown; session_id?: unknown };
}

const sameCondition = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);

async function readBody(call: HelixCall): Promise<CreateBody | null> {
  try {
    const body: unknown = await call.request.json();
    return typeof body === "object" && body !== null ? (body as CreateBody) : null;
  } catch {
    return null;
  }
}

/**
 * Create EventSub Subscription, refusing as Twitch does, in its order: 400 for the type and version,
 * the condition and the transport; 403 for a missing scope or a user who may not read the events;
 * 400 for an unknown user or session; 409 for a duplicate; 429 for the socket, socket-count and
 * cost limits.
 */
async function create(state: EventSubState, call: HelixCall): Promise<Response> {
  const { env, sessions, subscriptions } = state;
  const userId = call.caller.userId as string;
  const body = await readBody(call);
  if (!body) return helixError(400, "The body of the request is not valid JSON.");
  const kind = typeof body.type === "string" ? kindOf(body.type) : undefined;
  if (!kind || body.version !== kind.version) {
    return helixError(400, "The combination of values in the type and version fields is not valid");
  }
  const type = body.type as string;
  const condition = readCondition(kind, body.condition);
  if (typeof condition === "string") return helixError(400, condition);
  if (body.transport?.method !== "websocket" || typeof body.transport.session_id !== "string") {
    return helixError(400, "The transport field is not valid: method websocket needs session_id.");
  }
  const scoped = kind.scopes.length === 0 || kind.scopes.some((s) => call.caller.scopes.includes(s));
  const facts = { userId, scopes: call.caller.scopes, isModerator: env.isModerator, isBanned: env.isBanned };
  const cost = scoped ? kind.cost(condition, facts) : null;
  if (cost === null) return helixError(403, "subscription missing proper authorization");
  const unknown = namedUsers(condition).find((id) => !env.userExists(id));
  if (unknown !== undefined)
    return helixError(400, `The user ${unknown} in the condition is not a valid user.`);
  const session = sessions.get(body.transport.session_id);
  if (session?.status !== "connected" || (session.userId !== null && session.userId !== userId)) {
    return helixError(400, "websocket transport session does not exist or has already disconnected");
  }
  const mine = enabledOf(state, userId);
  if (mine.some((s) => s.type === type && sameCondition(s.condition, condition))) {
    return helixError(409, "subscription already exists");
  }
  forgetExpired(state);
  if (enabledOn(state, session.id).length >= MAX_PER_SOCKET) {
    return helixError(429, "websocket transports are limited to 300 enabled subscriptions");
  }
  const sockets = new Set(mine.map((s) => s.sessionId));
  if (!sockets.has(session.id) && sockets.size >= MAX_SOCKETS_PER_USER) {
    return helixError(429, "a user may have at most 3 websocket transports with enabled subscriptions");
  }
  if (totals(state, userId).total_cost + cost > MAX_TOTAL_COST) {
    return helixError(429, "the subscriptions' total cost would exceed max_total_cost");
  }
  session.userId = userId;
  const sub: SubscriptionRecord = {
    id: randomUUID(),
    status: "enabled",
    type,
    version: kind.version,
    condition,
    sessionId: session.id,
    userId,
    cost,
    createdAt: new Date(env.clock.now()).toISOString(),
    disconnectedAt: null,
    disabledAt: null,
  };
  subscriptions.set(sub.id, sub);
  return json(202, { data: [publicSub(state, sub)], ...totals(state, userId) });
}

function list(state: EventSubState, call: HelixCall): Response {
  const userId = call.caller.userId as string;
  const filters = ["status", "type", "user_id", "subscription_id"].filter((f) => call.query.has(f));
  if (filters.length > 1)
    return helixError(400, "Only one of status, type, user_id and subscription_id may be given.");
  const q = call.query;
  const rows = [...state.subscriptions.values()]
    .filter((s) => s.userId === userId && visible(state, s))
    .filter((s) => !q.has("status") || s.status === q.get("status"))
    .filter((s) => !q.has("type") || s.type === q.get("type"))
    .filter((s) => !q.has("user_id") || s.condition.user_id === q.get("user_id"))
    .filter((s) => !q.has("subscription_id") || s.id === q.get("subscription_id"));
  const after = q.get("after");
  const start = after ? Math.max(0, rows.findIndex((s) => s.id === after) + 1) : 0;
  const page = rows.slice(start, start + 100);
  const cursor = start + 100 < rows.length ? page.at(-1)?.id : undefined;
  return json(200, {
    data: page.map((s) => publicSub(state, s)),
    ...totals(state, userId),
    pagination: cursor ? { cursor } : {},
  });
}

function remove(state: EventSubState, call: HelixCall): Response {
  const id = call.query.get("id");
  if (!id) return helixError(400, 'Missing required parameter "id"');
  const sub = state.subscriptions.get(id);
  if (!sub || sub.userId !== call.caller.userId) return helixError(404, "subscription not found");
  state.subscriptions.delete(id);
  return new Response(null, { status: 204 });
}

/**
 * Delivers an event to every enabled subscription of `type` whose condition matches it (catalog.ts:
 * the broadcaster, a raid's direction, a redemption's reward); returns the message ids sent, one per
 * subscription. `at` stamps the message (an old one for stale tests).
 */
export function deliver(
  state: EventSubState,
  type: string,
  broadcasterId: string,
  event: object,
  at = state.env.clock.now(),
): string[] {
  const kind = kindOf(type);
  const sent: string[] = [];
  for (const sub of state.subscriptions.values()) {
    if (sub.status !== "enabled" || sub.type !== type || !kind?.matches(sub.condition, broadcasterId, event))
      continue;
    const session = state.sessions.get(sub.sessionId);
    if (!session || session.status === "closed") continue;
    const id = frame(
      state,
      session,
      "notification",
      { subscription: publicSub(state, sub), event },
      { subscription_type: sub.type, subscription_version: sub.version },
      at,
    );
    state.sentNotifications.set(id, { subscriptionId: sub.id, event });
    if (state.sentNotifications.size > MAX_REMEMBERED_NOTIFICATIONS)
      state.sentNotifications.delete(state.sentNotifications.keys().next().value as string);
    sent.push(id);
  }
  return sent;
}

/** `deliver`, counting the sessions reached. */
export const notify = (...args: Parameters<typeof deliver>): number => deliver(...args).length;

/**
 * Sends again notifications already sent, with their message ids (Twitch's at-least-once delivery);
 * returns how many went out (a subscription since disabled gets nothing).
 */
export function redeliver(state: EventSubState, messageIds: Iterable<string>): number {
  let resent = 0;
  for (const messageId of messageIds) {
    const sent = state.sentNotifications.get(messageId);
    const sub = sent ? state.subscriptions.get(sent.subscriptionId) : undefined;
    const session = sub ? state.sessions.get(sub.sessionId) : undefined;
    if (!sent || !sub || !session || sub.status !== "enabled") continue;
    send(state, session, {
      metadata: {
        message_id: messageId,
        message_type: "notification",
        message_timestamp: nanoTimestamp(state.env.clock.now()),
        subscription_type: sub.type,
        subscription_version: sub.version,
      },
      payload: { subscription: publicSub(state, sub), event: sent.event },
    });
    resent++;
  }
  return resent;
}

/** Sends again the notification frames that carried a chat message id, with their message ids. */
export function redeliverChat(state: EventSubState, chatMessageId: string): void {
  const ids = [...state.sentNotifications]
    .filter(([, sent]) => (sent.event as { message_id?: string }).message_id === chatMessageId)
    .map(([messageId]) => messageId);
  redeliver(state, ids);
}

/** Why Twitch revokes one subscription type (reference/twitch-chat.md §1.9). */
export const TYPE_REVOKE_REASONS: ReadonlySet<string> = new Set([
  "authorization_revoked",
  "user_removed",
  "version_removed",
]);

/**
 * Revokes a user's enabled subscriptions (a `revocation` frame each), all of them or those of one
 * `type`; returns how many. Revoking all with authorization_revoked also ends the user's tokens (the
 * user disconnected the app); revoking one type leaves the tokens and the other types working.
 */
export function revoke(
  state: EventSubState,
  userId: string,
  reason = "authorization_revoked",
  type?: string,
): number {
  let revoked = 0;
  for (const sub of state.subscriptions.values()) {
    if (sub.userId !== userId || sub.status !== "enabled" || (type !== undefined && sub.type !== type))
      continue;
    revoked++;
    sub.status = reason;
    sub.disabledAt = state.env.clock.now();
    const session = state.sessions.get(sub.sessionId);
    if (session) {
      frame(
        state,
        session,
        "revocation",
        { subscription: publicSub(state, sub) },
        { subscription_type: sub.type, subscription_version: sub.version },
      );
    }
  }
  if (reason === "authorization_revoked" && type === undefined) state.env.killTokens(userId);
  return revoked;
}

export function subscriptionList(state: EventSubState): SimSubscriptionInfo[] {
  return [...state.subscriptions.values()].map(({ disabledAt: _, cost: __, ...s }) => ({
    ...s,
    condition: { ...s.condition },
  }));
}
