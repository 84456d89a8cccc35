/**
 * The EventSub subscriptions behind each alert type (reference/alerts.md §1; Twitch's "EventSub
 * subscription types", dev.twitch.tv/docs/eventsub/eventsub-subscription-types): the type and version
 * to subscribe, the condition's shape, and the scope the streamer's token needs (null: none).
 */
import type { AlertType } from "./model.ts";

export interface AlertSubscription {
  type: string;
  version: string;
  /** The condition for the streamer's own channel (the token user is the broadcaster). */
  condition: (broadcasterId: string) => Record<string, string>;
  scope: string | null;
}

const broadcaster = (id: string) => ({ broadcaster_user_id: id });

export const ALERT_SUBSCRIPTIONS: Readonly<Record<AlertType, AlertSubscription>> = {
  follow: {
    type: "channel.follow",
    version: "2",
    condition: (id) => ({ broadcaster_user_id: id, moderator_user_id: id }),
    scope: "moderator:read:followers",
  },
  subscribe: {
    type: "channel.subscribe",
    version: "1",
    condition: broadcaster,
    scope: "channel:read:subscriptions",
  },
  resub: {
    type: "channel.subscription.message",
    version: "1",
    condition: broadcaster,
    scope: "channel:read:subscriptions",
  },
  gift: {
    type: "channel.subscription.gift",
    version: "1",
    condition: broadcaster,
    scope: "channel:read:subscriptions",
  },
  cheer: { type: "channel.cheer", version: "1", condition: broadcaster, scope: "bits:read" },
  raid: {
    type: "channel.raid",
    version: "1",
    condition: (id) => ({ to_broadcaster_user_id: id }),
    scope: null,
  },
  redemption: {
    type: "channel.channel_points_custom_reward_redemption.add",
    version: "1",
    condition: broadcaster,
    scope: "channel:read:redemptions",
  },
};
