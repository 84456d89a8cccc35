import { actionsBesideChat } from "./actions/live-feature.ts";
import { alertsBesideChat } from "./alerts/live-feature.ts";
import { type ChatLeadership, type ChatLeadershipOptions, startChatLeadership } from "./chat/leader.ts";
import { type ChatManagerOptions, startNativeChat } from "./chat/manager.ts";
import type { ChatRuntime } from "./chat/status.ts";
import { customCommandsBesideChat } from "./custom/live-feature.ts";
import type { LiveFeature } from "./live/features.ts";
import { moderationBesideChat } from "./moderation/live-feature.ts";
import { obsBesideChat } from "./obs/live-feature.ts";
import type { RedisStore } from "./redis/client.ts";
import type { Context } from "./runtime.ts";

/**
 * What runs on the live layer beside native chat (live/features.ts), in the order they start: chat
 * names none of them, the runtime names them all here.
 */
export const liveFeatures = (ctx: Context): readonly LiveFeature[] => [
  moderationBesideChat(ctx),
  alertsBesideChat(ctx),
  customCommandsBesideChat(ctx),
  obsBesideChat(ctx),
  actionsBesideChat(ctx),
];

/** Native chat and every live feature, on this instance alone (chat/manager.ts `startNativeChat`). */
export function startLive(ctx: Context, options: ChatManagerOptions = {}): ChatRuntime {
  return startNativeChat(ctx, { ...options, features: liveFeatures(ctx) });
}

/** Native chat and every live feature on the chat lease holder (chat/leader.ts). */
export function startLiveLeadership(
  ctx: Context,
  store: RedisStore,
  options: ChatLeadershipOptions = {},
): ChatLeadership {
  return startChatLeadership(ctx, store, { ...options, features: liveFeatures(ctx) });
}
