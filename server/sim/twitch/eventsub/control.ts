import { json, readJsonObject } from "../helix/http.ts";
import { emitBody } from "./emit.ts";
import {
  closeSession,
  dropKeepalives,
  reconnect,
  SIM_CLOSE_CODES,
  type SimCloseCode,
  sessionList,
} from "./sessions.ts";
import type { EventSubState } from "./state.ts";
import { redeliver, revoke, subscriptionList, TYPE_REVOKE_REASONS } from "./subscriptions.ts";

/**
 * `/_sim/eventsub/*`: the transport's knobs over loopback HTTP, for the demo and for clients in other
 * processes (reference/twitch-chat.md §7.4). GET `sessions` and `subscriptions` list them; POST
 * `reconnect`, `revoke` (all of a user's subscriptions, or one `type`), `close` and `keepalives`
 * provoke the failure modes; POST `emit` fires an alert-ish event (emit.ts) and `redeliver` sends the
 * last emit's notifications again with their message ids.
 */

const optionalString = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);

type Control = (state: EventSubState, body: Record<string, unknown>) => Response;

const CONTROLS: Record<string, Control> = {
  reconnect: (state, body) => json(200, { reconnecting: reconnect(state, optionalString(body.session_id)) }),
  revoke(state, body) {
    const userId = optionalString(body.user_id);
    if (!userId) return json(400, { error: "user_id is required" });
    const type = optionalString(body.type);
    const reason = optionalString(body.reason);
    if (type !== undefined && reason !== undefined && !TYPE_REVOKE_REASONS.has(reason)) {
      return json(400, { error: `reason must be one of ${[...TYPE_REVOKE_REASONS].join(", ")}` });
    }
    return json(200, { revoked: revoke(state, userId, reason, type) });
  },
  emit(state, body) {
    const emitted = emitBody(state, body);
    if (typeof emitted === "string") return json(400, { error: emitted });
    return json(200, {
      delivered: emitted.reduce((n, e) => n + e.message_ids.length, 0),
      notifications: emitted,
    });
  },
  redeliver(state, body) {
    const messageId = optionalString(body.message_id);
    return json(200, { redelivered: redeliver(state, messageId ? [messageId] : state.lastEmitted) });
  },
  close(state, body) {
    const sessionId = optionalString(body.session_id);
    const code = body.code;
    if (!sessionId || typeof code !== "number" || !SIM_CLOSE_CODES.has(code)) {
      return json(400, {
        error: `session_id and code (one of ${[...SIM_CLOSE_CODES].join(", ")}) are required`,
      });
    }
    return closeSession(state, sessionId, code as SimCloseCode)
      ? json(200, { closed: sessionId, code })
      : json(404, { error: "no such open session" });
  },
  keepalives(state, body) {
    if (typeof body.drop !== "boolean") return json(400, { error: "drop (boolean) is required" });
    return json(200, { sessions: dropKeepalives(state, body.drop, optionalString(body.session_id)) });
  },
};

/** Answers a `/_sim/eventsub/*` request; null when the path is not one of them. */
export async function handleEventSubControl(
  state: EventSubState,
  request: Request,
  url: URL,
): Promise<Response | null> {
  if (!url.pathname.startsWith("/_sim/eventsub/")) return null;
  const action = url.pathname.slice("/_sim/eventsub/".length);
  if (request.method === "GET") {
    if (action === "sessions") return json(200, { data: sessionList(state) });
    if (action === "subscriptions") return json(200, { data: subscriptionList(state) });
    return null;
  }
  const control = Object.hasOwn(CONTROLS, action) ? CONTROLS[action] : undefined;
  if (request.method !== "POST" || !control) return null;
  const body = await readJsonObject(request);
  if (!body) return json(400, { error: "body must be a JSON object" });
  return control(state, body);
}
