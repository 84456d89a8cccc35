import { byLogin, type ChatRole, isBanned, setRole } from "./chatters.ts";
import { handleChatControl } from "./control.ts";
import { type SayInput, say } from "./lines.ts";
import { sendMessageRoutes } from "./send.ts";
import { type ChatEnvironment, newChatState, type RoomModes, type SimSendAttempt } from "./state.ts";

/**
 * A channel's chat as the simulator keeps it: lines typed by (injected) users (lines.ts), Send Chat
 * Message with Twitch's limits and drop reasons (send.ts), the `/_sim/chat/*` hook (control.ts), and
 * the EventSub transport's knobs passed through, so a test drives the whole chat from `sim.chat`.
 */
export function createSimChat(env: ChatEnvironment) {
  const state = newChatState(env);
  const { world, clock, eventsub } = env;
  return {
    knobs: state.knobs,
    routes: sendMessageRoutes(state),
    handleSimHttp: (request: Request, url: URL) => handleChatControl(state, request, url),
    isBanned: (broadcasterId: string, userId: string) => isBanned(world, clock, broadcasterId, userId),
    say: (input: SayInput) => say(state, input),
    sayStale: (input: SayInput) => say(state, input, clock.now() - 11 * 60_000),
    lines: (channel: string) => [...(state.lines.get(channel.replace(/^@/, "").toLowerCase()) ?? [])],
    sent: () => [...state.attempts],
    /** Calls `listener` with each Send Chat Message attempt as it happens; returns how to stop. */
    onSend(listener: (attempt: SimSendAttempt) => void): () => void {
      state.sendListeners.add(listener);
      return () => state.sendListeners.delete(listener);
    },
    setRole: (channel: string, user: string, role: ChatRole): void =>
      setRole(world, clock, channel, user, role),
    setRoomMode(channel: string, changes: Partial<RoomModes>): void {
      const c = byLogin(world, channel);
      if (!c) throw new Error(`no simulated channel ${channel}`);
      const current = state.modes.get(c.id) ?? {
        slowSeconds: 0,
        followersOnly: false,
        subscribersOnly: false,
        emoteOnly: false,
      };
      state.modes.set(c.id, { ...current, ...changes });
    },
    redeliver: (messageId: string) => eventsub.redeliverChat(messageId),
    reconnect: eventsub.reconnect,
    revoke: eventsub.revoke,
    close: eventsub.close,
    dropKeepalives: eventsub.dropKeepalives,
    sessions: eventsub.sessions,
    subscriptions: eventsub.subscriptions,
  };
}

export type SimChat = ReturnType<typeof createSimChat>;
