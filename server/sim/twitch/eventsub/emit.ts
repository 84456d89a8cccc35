import {
  cheerEvent,
  type EventContext,
  followEvent,
  giftEvent,
  offlineEvent,
  onlineEvent,
  raidEvent,
  redemptionEvent,
  resubEvent,
  type StreamType,
  subscribeEvent,
  type Tier,
} from "./alert-events.ts";
import type { EventSubState, SimUserRef } from "./state.ts";
import { deliver, redeliver } from "./subscriptions.ts";

/**
 * `POST /_sim/eventsub/emit`: one alert-ish event (or a gift bomb) built from a JSON body and
 * delivered as real notifications to every matching subscription. The body names the type (an alert
 * name such as "cheer" or the EventSub type), the broadcaster, and overrides; each override is checked
 * and refused (400, naming it) when it is malformed or does not belong to the type.
 */

/** Twitch's largest gift bomb. */
export const MAX_GIFT_TOTAL = 100;
const MAX_TEXT = 10_000;

type Options = Record<string, unknown>;

interface Emitter {
  /** The viewer or raiding channel used when the body names none (a login of the seeded world). */
  defaultUser: string;
  /** The overrides the type takes, besides `user` and `user_name`. */
  fields: readonly string[];
  build(ctx: EventContext, options: Options): object;
}

/** The emitters by EventSub type; the builders' option types are what FIELD_CHECKS lets through. */
const EMITTERS: Readonly<Record<string, Emitter>> = {
  "channel.follow": { defaultUser: "viewer_anna", fields: ["followed_at"], build: followEvent },
  "channel.subscribe": { defaultUser: "subdave", fields: ["tier", "is_gift"], build: subscribeEvent },
  "channel.subscription.message": {
    defaultUser: "subdave",
    fields: ["tier", "message", "emotes", "cumulative_months", "streak_months", "duration_months"],
    build: resubEvent,
  },
  "channel.subscription.gift": {
    defaultUser: "vipcarla",
    fields: ["total", "tier", "cumulative_total", "anonymous"],
    build: giftEvent,
  },
  "channel.cheer": { defaultUser: "modbob", fields: ["bits", "message", "anonymous"], build: cheerEvent },
  "channel.raid": { defaultUser: "otherstreamer", fields: ["viewers"], build: raidEvent },
  "channel.channel_points_custom_reward_redemption.add": {
    defaultUser: "lurker_eve",
    fields: ["id", "reward", "user_input", "status"],
    build: redemptionEvent,
  },
  "stream.online": {
    defaultUser: "cuebotdemo",
    fields: ["id", "stream_type"],
    build: (ctx, o) =>
      onlineEvent(ctx, { id: o.id as string | undefined, type: o.stream_type as StreamType | undefined }),
  },
  "stream.offline": { defaultUser: "cuebotdemo", fields: [], build: offlineEvent },
};

/** The alert names (as cuebot's alert types, plus online/offline) → EventSub types. */
export const EMIT_ALIASES: Readonly<Record<string, string>> = {
  follow: "channel.follow",
  subscribe: "channel.subscribe",
  resub: "channel.subscription.message",
  gift: "channel.subscription.gift",
  cheer: "channel.cheer",
  raid: "channel.raid",
  redemption: "channel.channel_points_custom_reward_redemption.add",
  online: "stream.online",
  offline: "stream.offline",
};

const text = (v: unknown) => typeof v === "string" && v.length <= MAX_TEXT;
const nonEmpty = (v: unknown) => text(v) && v !== "";
const int = (min: number, max: number) => (v: unknown) =>
  typeof v === "number" && Number.isInteger(v) && v >= min && v <= max;
const nullOr = (check: (v: unknown) => boolean) => (v: unknown) => v === null || check(v);
const oneOf = (values: readonly string[]) => (v: unknown) => typeof v === "string" && values.includes(v);
const bool = (v: unknown) => typeof v === "boolean";

function isReward(v: unknown): boolean {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const checks: Record<string, (x: unknown) => boolean> = {
    id: nonEmpty,
    title: nonEmpty,
    cost: int(1, 1_000_000_000),
    prompt: text,
  };
  return Object.entries(v).every(([key, value]) => Object.hasOwn(checks, key) && checks[key]?.(value));
}

/** What each override must be. */
const FIELD_CHECKS: Readonly<Record<string, (v: unknown) => boolean>> = {
  user: nonEmpty,
  user_name: text,
  followed_at: nonEmpty,
  tier: oneOf(["1000", "2000", "3000"]),
  is_gift: bool,
  message: text,
  emotes: (v) => v === null,
  cumulative_months: int(1, 10_000),
  streak_months: nullOr(int(0, 10_000)),
  duration_months: int(1, 12),
  total: int(1, MAX_GIFT_TOTAL),
  cumulative_total: nullOr(int(1, 1_000_000)),
  anonymous: bool,
  bits: int(1, 1_000_000),
  viewers: int(0, 10_000_000),
  id: nonEmpty,
  reward: isReward,
  user_input: text,
  status: oneOf(["unfulfilled", "fulfilled", "canceled", "unknown"]),
  stream_type: oneOf(["live", "playlist", "watch_party", "premiere", "rerun"]),
};

/** Body keys that are not overrides. */
const REQUEST_KEYS = new Set(["type", "broadcaster_user_id", "redeliver"]);

export interface EmitRequest {
  type: string;
  broadcasterId: string;
  redeliver: boolean;
  user: string | undefined;
  userName: string | undefined;
  options: Options;
}

/** Reads an emit body, or answers the error naming what is wrong. */
export function readEmitRequest(body: Record<string, unknown>): EmitRequest | string {
  const named = typeof body.type === "string" ? body.type : "";
  const type = Object.hasOwn(EMIT_ALIASES, named) ? (EMIT_ALIASES[named] as string) : named;
  const emitter = Object.hasOwn(EMITTERS, type) ? EMITTERS[type] : undefined;
  if (!emitter) return `type must be one of ${Object.keys(EMIT_ALIASES).join(", ")} or their EventSub types`;
  if (!nonEmpty(body.broadcaster_user_id)) return "broadcaster_user_id is required";
  if (body.redeliver !== undefined && !bool(body.redeliver)) return "redeliver must be a boolean";
  const options: Options = {};
  for (const [key, value] of Object.entries(body)) {
    if (REQUEST_KEYS.has(key)) continue;
    const check = Object.hasOwn(FIELD_CHECKS, key) ? FIELD_CHECKS[key] : undefined;
    const applies = key === "user" || key === "user_name" || emitter.fields.includes(key);
    if (!check || !applies) return `${key} is not an override of ${type}`;
    if (!check(value)) return `${key} is not valid`;
    if (key !== "user" && key !== "user_name") options[key] = value;
  }
  return {
    type,
    broadcasterId: body.broadcaster_user_id as string,
    redeliver: body.redeliver === true,
    user: body.user as string | undefined,
    userName: body.user_name as string | undefined,
    options,
  };
}

export interface EmittedNotification {
  type: string;
  event: object;
  /** One per subscription reached. */
  message_ids: string[];
}

/**
 * The recipients of a gift bomb: N distinct users of the world other than the broadcaster and the
 * gifter, then generated ones (giftee001…) when the world has too few.
 */
export function giftRecipients(
  users: readonly SimUserRef[],
  exclude: readonly string[],
  n: number,
): SimUserRef[] {
  const picked = users.filter((u) => !exclude.includes(u.id)).slice(0, n);
  for (let i = picked.length; i < n; i++) {
    const number = String(i + 1).padStart(3, "0");
    picked.push({ id: String(300_000 + i + 1), login: `giftee${number}`, display_name: `Giftee${number}` });
  }
  return picked;
}

/** The events one request makes: the event, then for a gift its N `channel.subscribe` with is_gift. */
function eventsOf(
  request: EmitRequest,
  ctx: EventContext,
  users: readonly SimUserRef[],
): { type: string; event: object }[] {
  const event = (EMITTERS[request.type] as Emitter).build(ctx, request.options);
  const events = [{ type: request.type, event }];
  if (request.type !== "channel.subscription.gift") return events;
  const total = (request.options.total as number | undefined) ?? 1;
  const exclude = [ctx.broadcaster.id, ...(request.options.anonymous === true ? [] : [ctx.user.id])];
  for (const recipient of giftRecipients(users, exclude, total)) {
    const sub = subscribeEvent(
      { ...ctx, user: recipient, userName: undefined },
      { tier: request.options.tier as Tier | undefined, is_gift: true },
    );
    events.push({ type: "channel.subscribe", event: sub });
  }
  return events;
}

/**
 * Emits a request: builds its events and delivers each to the matching subscriptions (again at once
 * with the same message ids when `redeliver`); the ids are kept for `/_sim/eventsub/redeliver`.
 * Answers the notifications, or an error for an unknown broadcaster or user.
 */
export function emit(state: EventSubState, request: EmitRequest): EmittedNotification[] | string {
  const users = state.env.users();
  const broadcaster = users.find((u) => u.id === request.broadcasterId);
  if (!broadcaster) return "broadcaster_user_id is not a user";
  const login = request.user ?? (EMITTERS[request.type] as Emitter).defaultUser;
  const user = users.find((u) => u.login === login.toLowerCase());
  if (!user) return "user is not a user's login";
  const ctx: EventContext = { broadcaster, user, userName: request.userName, now: state.env.clock.now() };
  const emitted = eventsOf(request, ctx, users).map(({ type, event }) => ({
    type,
    event,
    message_ids: deliver(state, type, broadcaster.id, event),
  }));
  state.lastEmitted = emitted.flatMap((n) => n.message_ids);
  if (request.redeliver) redeliver(state, state.lastEmitted);
  return emitted;
}

/** Reads and emits a body (the control and in-process tests): the notifications, or the error. */
export function emitBody(
  state: EventSubState,
  body: Record<string, unknown>,
): EmittedNotification[] | string {
  const request = readEmitRequest(body);
  return typeof request === "string" ? request : emit(state, request);
}
