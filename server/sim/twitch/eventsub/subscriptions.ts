import { randomUUID } from "node:crypto";
import { helixError, json } from "../helix/http.ts";
import type { HelixCall, HelixRouteList } from "../helix/route.ts";
import { frame, send } from "./sessions.ts";
import {
  CHAT_MESSAGE_TYPE,
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
 * limits, the notifications they receive, and revocation. Only `channel.chat.message` v1 can be
 * subscribed (the type cuebot uses).
 */

const MAX_PER_SOCKET = 300;
const MAX_SOCKETS_PER_USER = 3;

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

function publicSub(state: EventSubState, sub: SimSubscriptionInfo) {
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
    cost: 0,
  };
}

const visible = (state: EventSubState, sub: SubscriptionRecord) => !expired(state, sub.disabledAt);

const totals = (state: EventSubState, userId: string) => ({
  total: [...state.subscriptions.values()].filter((s) => s.userId === userId && s.status === "enabled")
    .length,
  total_cost: 0,
  max_total_cost: 10,
});

interface CreateBody {
  type?: unknown;
  version?: unknown;
  condition?: Record<string, unknown>;
  transport?: { method?: unknown; session_id?: unknown };
}

async function create(state: EventSubState, call: HelixCall): Promise<Response> {
  const { env, sessions, subscriptions } = state;
  const userId = call.caller.userId as string;
  let body: CreateBody;
  try {
    body = (await call.request.json()) as CreateBody;
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
  forgetExpired(state);
  if (enabledOn(state, session.id).length >= MAX_PER_SOCKET) {
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
  const sub: SubscriptionRecord = {
    id: randomUUID(),
    status: "enabled",
    type: CHAT_MESSAGE_TYPE,
    version: "1",
    condition: { broadcaster_user_id: broadcaster, user_id: reader },
    sessionId: session.id,
    userId,
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
 * Delivers an event to every enabled subscription of `type` whose condition's broadcaster matches;
 * returns how many sessions got it. `at` stamps the message (an old one for stale tests).
 */
export function notify(
  state: EventSubState,
  type: string,
  broadcasterId: string,
  event: object,
  at = state.env.clock.now(),
): number {
  let delivered = 0;
  for (const sub of state.subscriptions.values()) {
    if (sub.status !== "enabled" || sub.type !== type || sub.condition.broadcaster_user_id !== broadcasterId)
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
    if (state.sentNotifications.size > 5000)
      state.sentNotifications.delete(state.sentNotifications.keys().next().value as string);
    delivered++;
  }
  return delivered;
}

/** Sends again the notification frames that carried a chat message id, with their message ids. */
export function redeliverChat(state: EventSubState, chatMessageId: string): void {
  for (const [messageId, sent] of state.sentNotifications) {
    if ((sent.event as { message_id?: string }).message_id !== chatMessageId) continue;
    const sub = state.subscriptions.get(sent.subscriptionId);
    const session = sub ? state.sessions.get(sub.sessionId) : undefined;
    if (!sub || !session || sub.status !== "enabled") continue;
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
  }
}

/** Revokes a user's enabled subscriptions (a `revocation` frame each); returns how many. */
export function revoke(state: EventSubState, userId: string, reason = "authorization_revoked"): number {
  let revoked = 0;
  for (const sub of state.subscriptions.values()) {
    if (sub.userId !== userId || sub.status !== "enabled") continue;
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
  if (reason === "authorization_revoked") state.env.killTokens(userId);
  return revoked;
}

export function subscriptionList(state: EventSubState): SimSubscriptionInfo[] {
  return [...state.subscriptions.values()].map(({ disabledAt: _, ...s }) => ({
    ...s,
    condition: { ...s.condition },
  }));
}
