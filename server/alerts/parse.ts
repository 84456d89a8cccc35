/**
 * An EventSub notification (its subscription type and `event` object) read into an alert's fields, or
 * nothing (reference/alerts.md §1 for the payloads, §2 for the gift rule, §7 for what
 * must be read defensively). Pure: no I/O, no clock.
 *
 * Nothing here trusts the payload: a user's fields may be null (anonymous gifts and cheers), a name
 * empty, a number a string or negative, a message an object or a string; text is made one line of
 * plain text (server/alerts/plain-text.ts) and capped. Whatever is missing becomes null, never
 * "undefined".
 */
import type { AlertFields, AlertType, SubTier } from "./model.ts";
import { plainText } from "./plain-text.ts";
import { ALERT_SUBSCRIPTIONS } from "./types.ts";

export interface ParsedEvent {
  kind: "alert";
  type: AlertType;
  fields: AlertFields;
  naturalKey: string | null;
}

/** The longest viewer text kept (a resub message, a cheer message, a redemption's input). */
export const MESSAGE_MAX = 500;
/** The longest name or reward title kept (Twitch's are 25 and 45; the cap only guards odd payloads). */
export const NAME_MAX = 100;

/** What a user is called when Twitch names nobody: an anonymous gift or cheer, else "Someone". */
export const ANONYMOUS = "Anonymous";
export const SOMEONE = "Someone";

/** twitch-cli's anonymous gifter (reference/alerts.md §1.4): a real-looking user where Twitch sends null. */
const ANONYMOUS_GIFTER_ID = "274598607";
const ANONYMOUS_GIFTER_LOGIN = "ananonymousgifter";

type Payload = Readonly<Record<string, unknown>>;

/** The alert type an EventSub subscription type feeds, or null (stream.online/offline, unknown). */
export function alertTypeOfSubscription(subscriptionType: string): AlertType | null {
  for (const [type, subscription] of Object.entries(ALERT_SUBSCRIPTIONS)) {
    if (subscription.type === subscriptionType) return type as AlertType;
  }
  return null;
}

export function parseAlertEvent(
  subscriptionType: string,
  event: unknown,
  streamerId: string,
): ParsedEvent | null {
  const payload = asPayload(event);
  if (payload === null) return null;
  const type = alertTypeOfSubscription(subscriptionType);
  if (type === null) return null;
  if (type === "raid") return readRaid(payload, streamerId);
  if (forOtherChannel(payload, streamerId)) return null;
  const fields = READERS[type](payload);
  if (fields === null) return null;
  return { kind: "alert", type, fields, naturalKey: type === "redemption" ? naturalKey(payload.id) : null };
}

const READERS: Record<Exclude<AlertType, "raid">, (event: Payload) => AlertFields | null> = {
  follow: (event) => fieldsOf(userName(event, "user", SOMEONE), {}),
  // A gifted sub's recipient: the gift alert (channel.subscription.gift) stands for the whole gift.
  subscribe: (event) =>
    event.is_gift === true ? null : fieldsOf(userName(event, "user", SOMEONE), { tier: tierOf(event.tier) }),
  resub: (event) => {
    const months = count(event.cumulative_months);
    return fieldsOf(userName(event, "user", SOMEONE), {
      amount: months,
      months,
      tier: tierOf(event.tier),
      message: viewerText(event.message),
    });
  },
  gift: (event) =>
    fieldsOf(anonymous(event) ? ANONYMOUS : userName(event, "user", ANONYMOUS), {
      amount: count(event.total),
      tier: tierOf(event.tier),
    }),
  cheer: (event) =>
    fieldsOf(anonymous(event) ? ANONYMOUS : userName(event, "user", ANONYMOUS), {
      amount: count(event.bits),
      message: viewerText(event.message),
    }),
  redemption: (event) =>
    fieldsOf(userName(event, "user", SOMEONE), {
      reward: plainText(asPayload(event.reward)?.title, NAME_MAX),
      message: viewerText(event.user_input),
    }),
};

/** An incoming raid only: the streamer's own raid out (to_broadcaster another channel) is no alert. */
function readRaid(event: Payload, streamerId: string): ParsedEvent | null {
  if (event.to_broadcaster_user_id !== streamerId || event.from_broadcaster_user_id === streamerId)
    return null;
  const fields = fieldsOf(userName(event, "from_broadcaster_user", SOMEONE), {
    amount: count(event.viewers),
  });
  return { kind: "alert", type: "raid", fields, naturalKey: null };
}

function fieldsOf(user: string, rest: Partial<Omit<AlertFields, "user">>): AlertFields {
  return {
    user,
    amount: rest.amount ?? null,
    months: rest.months ?? null,
    tier: rest.tier ?? null,
    reward: rest.reward ?? null,
    message: rest.message ?? null,
  };
}

function asPayload(value: unknown): Payload | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Payload) : null;
}

/** An event naming another broadcaster than the streamer is not this channel's (a missing id is let be). */
function forOtherChannel(event: Payload, streamerId: string): boolean {
  return event.broadcaster_user_id !== undefined && event.broadcaster_user_id !== streamerId;
}

/** `<prefix>_name`, else `<prefix>_login`, else the fallback. */
function userName(event: Payload, prefix: string, fallback: string): string {
  return (
    plainText(event[`${prefix}_name`], NAME_MAX) ?? plainText(event[`${prefix}_login`], NAME_MAX) ?? fallback
  );
}

/** An anonymous gift or cheer: flagged, or twitch-cli's stand-in gifter. */
function anonymous(event: Payload): boolean {
  return (
    event.is_anonymous === true ||
    event.user_id === ANONYMOUS_GIFTER_ID ||
    (typeof event.user_login === "string" && event.user_login.toLowerCase() === ANONYMOUS_GIFTER_LOGIN)
  );
}

/** "1000"/"2000"/"3000" → "1"/"2"/"3" (Prime arrives as "1000"); anything else null. */
function tierOf(value: unknown): SubTier | null {
  if (value === "1000") return "1";
  if (value === "2000") return "2";
  if (value === "3000") return "3";
  return null;
}

/** A count Twitch sends as a JSON number: a non-negative safe integer, else null. */
function count(value: unknown): number | null {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

/** A viewer's text: a string (cheer, redemption) or `{text, emotes}` (resub); emotes are not kept. */
function viewerText(value: unknown): string | null {
  return plainText(typeof value === "string" ? value : asPayload(value)?.text, MESSAGE_MAX);
}

/** A redemption's id, kept as the dedupe key only when it looks like an id (printable ASCII, ≤ 128). */
function naturalKey(value: unknown): string | null {
  return typeof value === "string" && /^[\x21-\x7e]{1,128}$/.test(value) ? value : null;
}
