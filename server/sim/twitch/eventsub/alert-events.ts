import { randomUUID } from "node:crypto";
import { nanoTimestamp as nanos, type SimUserRef } from "./state.ts";

/**
 * The event objects of the alert subscription types, key for key as Twitch's "EventSub reference"
 * documents them (dev.twitch.tv/docs/eventsub/eventsub-reference; examples in reference/alerts.md §1):
 * one builder per type, pure, with the overrides tests and the demo need (anonymous gifts and cheers,
 * a resub without streak or emotes, a raid's viewers, a redemption's reward and input, a follow's time).
 */

/** Who the event names and when it happens. */
export interface EventContext {
  broadcaster: SimUserRef;
  /** The viewer (follower, subscriber, gifter, cheerer, redeemer) or the raiding channel. */
  user: SimUserRef;
  /** A display name to use instead of the user's (odd names, huge names). */
  userName?: string;
  /** Clock ms. */
  now: number;
}

export type Tier = "1000" | "2000" | "3000";

export interface Emote {
  begin: number;
  end: number;
  id: string;
}

const broadcasterFields = (b: SimUserRef) => ({
  broadcaster_user_id: b.id,
  broadcaster_user_login: b.login,
  broadcaster_user_name: b.display_name,
});

const userFields = (ctx: EventContext) => ({
  user_id: ctx.user.id,
  user_login: ctx.user.login,
  user_name: ctx.userName ?? ctx.user.display_name,
});

const ANONYMOUS_USER = { user_id: null, user_login: null, user_name: null };

/** `channel.follow` v2. */
export function followEvent(ctx: EventContext, o: { followed_at?: string } = {}) {
  return {
    ...userFields(ctx),
    ...broadcasterFields(ctx.broadcaster),
    followed_at: o.followed_at ?? nanos(ctx.now),
  };
}

/** `channel.subscribe` v1: a new sub, or one gift's recipient (`is_gift`). */
export function subscribeEvent(ctx: EventContext, o: { tier?: Tier; is_gift?: boolean } = {}) {
  return {
    ...userFields(ctx),
    ...broadcasterFields(ctx.broadcaster),
    tier: o.tier ?? "1000",
    is_gift: o.is_gift ?? false,
  };
}

export interface ResubOptions {
  tier?: Tier;
  /** The shared message; its emotes are found by name (Kappa) unless `emotes` is given. */
  message?: string;
  emotes?: Emote[] | null;
  cumulative_months?: number;
  streak_months?: number | null;
  duration_months?: number;
}

/** The positions of "Kappa" in a text (0-based, `end` inclusive, as twurple reads them). */
function kappas(text: string): Emote[] {
  return [...text.matchAll(/\bKappa\b/g)].map((m) => ({ begin: m.index, end: m.index + 4, id: "25" }));
}

/** `channel.subscription.message` v1 (a resub shared in chat). */
export function resubEvent(ctx: EventContext, o: ResubOptions = {}) {
  const text = o.message ?? "14 months already Kappa";
  const cumulative = o.cumulative_months ?? 14;
  return {
    ...userFields(ctx),
    ...broadcasterFields(ctx.broadcaster),
    tier: o.tier ?? "1000",
    message: { text, emotes: o.emotes === undefined ? kappas(text) : o.emotes },
    cumulative_months: cumulative,
    streak_months: o.streak_months === undefined ? cumulative : o.streak_months,
    duration_months: o.duration_months ?? 1,
  };
}

export interface GiftOptions {
  total?: number;
  tier?: Tier;
  cumulative_total?: number | null;
  anonymous?: boolean;
}

/** `channel.subscription.gift` v1: anonymous → user_* and cumulative_total null, is_anonymous true. */
export function giftEvent(ctx: EventContext, o: GiftOptions = {}) {
  const anonymous = o.anonymous ?? false;
  const total = o.total ?? 1;
  return {
    ...(anonymous ? ANONYMOUS_USER : userFields(ctx)),
    ...broadcasterFields(ctx.broadcaster),
    total,
    tier: o.tier ?? "1000",
    cumulative_total: anonymous ? null : o.cumulative_total === undefined ? total : o.cumulative_total,
    is_anonymous: anonymous,
  };
}

/** `channel.cheer` v1: anonymous → user_* null. */
export function cheerEvent(
  ctx: EventContext,
  o: { bits?: number; message?: string; anonymous?: boolean } = {},
) {
  const anonymous = o.anonymous ?? false;
  const bits = o.bits ?? 100;
  return {
    is_anonymous: anonymous,
    ...(anonymous ? ANONYMOUS_USER : userFields(ctx)),
    ...broadcasterFields(ctx.broadcaster),
    message: o.message ?? `Cheer${bits} gg on that boss`,
    bits,
  };
}

/** `channel.raid` v1: `ctx.user` raids `ctx.broadcaster`. */
export function raidEvent(ctx: EventContext, o: { viewers?: number } = {}) {
  return {
    from_broadcaster_user_id: ctx.user.id,
    from_broadcaster_user_login: ctx.user.login,
    from_broadcaster_user_name: ctx.userName ?? ctx.user.display_name,
    to_broadcaster_user_id: ctx.broadcaster.id,
    to_broadcaster_user_login: ctx.broadcaster.login,
    to_broadcaster_user_name: ctx.broadcaster.display_name,
    viewers: o.viewers ?? 38,
  };
}

export interface Reward {
  id: string;
  title: string;
  cost: number;
  prompt: string;
}

export type RedemptionStatus = "unfulfilled" | "fulfilled" | "canceled" | "unknown";

export interface RedemptionOptions {
  id?: string;
  reward?: Partial<Reward>;
  user_input?: string;
  status?: RedemptionStatus;
}

export const DEFAULT_REWARD: Readonly<Reward> = {
  id: "92af127c-7326-4483-a52b-b0da0be61c01",
  title: "Kazoo solo",
  cost: 500,
  prompt: "Name a song",
};

/** `channel.channel_points_custom_reward_redemption.add` v1. */
export function redemptionEvent(ctx: EventContext, o: RedemptionOptions = {}) {
  return {
    id: o.id ?? randomUUID(),
    ...broadcasterFields(ctx.broadcaster),
    ...userFields(ctx),
    user_input: o.user_input ?? "",
    status: o.status ?? "unfulfilled",
    reward: { ...DEFAULT_REWARD, ...o.reward },
    redeemed_at: nanos(ctx.now),
  };
}

export type StreamType = "live" | "playlist" | "watch_party" | "premiere" | "rerun";

/** `stream.online` v1; the stream id is the clock's seconds unless given. */
export function onlineEvent(ctx: EventContext, o: { id?: string; type?: StreamType } = {}) {
  return {
    id: o.id ?? String(Math.floor(ctx.now / 1000)),
    ...broadcasterFields(ctx.broadcaster),
    type: o.type ?? "live",
    started_at: new Date(ctx.now).toISOString().replace(/\.\d{3}Z$/, "Z"),
  };
}

/** `stream.offline` v1: the broadcaster's fields only. */
export function offlineEvent(ctx: EventContext) {
  return broadcasterFields(ctx.broadcaster);
}
