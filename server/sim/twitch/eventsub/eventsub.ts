import type { Server } from "bun";
import { handleEventSubControl } from "./control.ts";
import { emitBody } from "./emit.ts";
import {
  closeSession,
  dropKeepalives,
  reconnect,
  type SimCloseCode,
  sessionList,
  stopSessions,
  upgrade,
  websocketHandlers,
} from "./sessions.ts";
import { type EventSubEnvironment, newEventSubState, type WsData } from "./state.ts";
import {
  notify,
  redeliver,
  redeliverChat,
  revoke,
  subscriptionApiRoutes,
  subscriptionList,
} from "./subscriptions.ts";

/**
 * The EventSub WebSocket transport and its subscription API, as reference/twitch-chat.md §1, §2 and
 * §7.1–7.2 describe them, by concern: the sessions on the socket (sessions.ts), the subscriptions and
 * their notifications (subscriptions.ts, the types in catalog.ts), the alert events (alert-events.ts,
 * emitted by emit.ts), and the knobs over HTTP (control.ts, `/_sim/eventsub/*`);
 * what they share is in state.ts. The knobs are also functions here, for tests in process.
 */
export function createEventSub(env: EventSubEnvironment) {
  const state = newEventSubState(env);
  return {
    websocket: websocketHandlers(state),
    upgrade: (request: Request, server: Server<WsData>) => upgrade(state, request, server),
    routes: subscriptionApiRoutes(state),
    notify: (type: string, broadcasterId: string, event: object, at?: number) =>
      notify(state, type, broadcasterId, event, at),
    redeliverChat: (chatMessageId: string) => redeliverChat(state, chatMessageId),
    /** As `POST /_sim/eventsub/emit`: the notifications sent, or the error. */
    emit: (body: Record<string, unknown>) => emitBody(state, body),
    /** Sends notifications again with their message ids (default: the last emit's). */
    redeliver: (messageIds: Iterable<string> = state.lastEmitted) => redeliver(state, messageIds),
    reconnect: (sessionId?: string) => reconnect(state, sessionId),
    revoke: (userId: string, reason?: string, type?: string) => revoke(state, userId, reason, type),
    close: (sessionId: string, code: SimCloseCode) => closeSession(state, sessionId, code),
    dropKeepalives: (drop: boolean, sessionId?: string) => dropKeepalives(state, drop, sessionId),
    sessions: () => sessionList(state),
    subscriptions: () => subscriptionList(state),
    handleSimHttp: (request: Request, url: URL) => handleEventSubControl(state, request, url),
    stop: () => stopSessions(state),
  };
}

export type EventSubSim = ReturnType<typeof createEventSub>;
