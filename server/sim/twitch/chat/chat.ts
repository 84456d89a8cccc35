import { byLogin, type ChatRole, isBanned, setRole } from "./chatters.ts";
import { handleChatControl } from "./control.ts";
import { type SayInput, say, trySay } from "./lines.ts";
import { chatModerationRoutes, clearUserLines } from "./moderation.ts";
import { sendMessageRoutes } from "./send.ts";
import { chatSettingsRoutes, notifySettings } from "./settings.ts";
import {
  type ChatEnvironment,
  newChatState,
  type RoomModes,
  type SimChatSettings,
  type SimDeleteCall,
  type SimSendAttempt,
  settingsOf,
} from "./state.ts";

/**
 * A channel's chat as the simulator keeps it: lines typed by (injected) users (lines.ts), Send Chat
 * Message with Twitch's limits and drop reasons (send.ts), Delete Chat Messages (moderation.ts), chat
 * settings (settings.ts), the `/_sim/chat/*` hook (control.ts), and the EventSub transport's knobs
 * passed through, so a test drives the whole chat from `sim.chat`.
 */
export function createSimChat(env: ChatEnvironment) {
  const state = newChatState(env);
  const { world, clock, eventsub } = env;
  const channelId = (channel: string) => {
    const c = byLogin(world, channel);
    if (!c) throw new Error(`no simulated channel ${channel}`);
    return c.id;
  };
  return {
    knobs: state.knobs,
    routes: [...sendMessageRoutes(state), ...chatModerationRoutes(state), ...chatSettingsRoutes(state)],
    handleSimHttp: (request: Request, url: URL) => handleChatControl(state, request, url),
    isBanned: (broadcasterId: string, userId: string) => isBanned(world, clock, broadcasterId, userId),
    /** Types a line; throws ChatRefusedError when the room refuses it (banned, followers-only, …). */
    say: (input: SayInput) => say(state, input),
    /** Types a line; `{messageId: null, refused: {code, message}}` when the room refuses it. */
    trySay: (input: SayInput) => trySay(state, input),
    sayStale: (input: SayInput) => say(state, input, clock.now() - 11 * 60_000),
    /** The channel's kept lines, oldest first; a removed one is there with `deleted: true`. */
    lines: (channel: string) => [...(state.lines.get(channel.replace(/^@/, "").toLowerCase()) ?? [])],
    sent: () => [...state.attempts],
    /** Calls `listener` with each Send Chat Message attempt as it happens; returns how to stop. */
    onSend(listener: (attempt: SimSendAttempt) => void): () => void {
      state.sendListeners.add(listener);
      return () => state.sendListeners.delete(listener);
    },
    /** Calls `listener` with each Delete Chat Messages call naming a message, as it is answered. */
    onDelete(listener: (call: SimDeleteCall) => void): () => void {
      state.deleteListeners.add(listener);
      return () => state.deleteListeners.delete(listener);
    },
    setRole: (channel: string, user: string, role: ChatRole): void =>
      setRole(world, clock, channel, user, role),
    /** The channel's chat settings as Get Chat Settings gives them (a copy). */
    settings: (channel: string): SimChatSettings => ({ ...settingsOf(state, channelId(channel)) }),
    setRoomMode(channel: string, changes: Partial<RoomModes>): void {
      const id = channelId(channel);
      const next = { ...settingsOf(state, id) };
      if (changes.slowSeconds !== undefined) {
        next.slow_mode = changes.slowSeconds > 0;
        next.slow_mode_wait_time = changes.slowSeconds > 0 ? changes.slowSeconds : null;
      }
      if (changes.followersOnly !== undefined) {
        next.follower_mode = changes.followersOnly;
        next.follower_mode_duration = changes.followersOnly ? 0 : null;
      }
      next.subscriber_mode = changes.subscribersOnly ?? next.subscriber_mode;
      next.emote_mode = changes.emoteOnly ?? next.emote_mode;
      state.settings.set(id, next);
      notifySettings(state, id, next);
    },
    /** A timeout or ban was placed: the chatter's lines in the channel are cleared (Helix Ban User). */
    clearUser: (broadcasterId: string, userId: string) => clearUserLines(state, broadcasterId, userId),
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
