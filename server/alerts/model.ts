/**
 * Stream alerts (issue 25): what cuebot keeps of an event and shows on the overlay. The same shape
 * travels on the overlay's alert stream, in the dashboard's history and in the store (`fields`).
 */
import type { AlertType } from "../../db/schema-enums.ts";

export { ALERT_TYPES, parseAlertType } from "../../db/schema-enums.ts";
export type { AlertType };

/** A sub's tier as Twitch's "1000"/"2000"/"3000" read into "1"/"2"/"3" (Prime arrives as "1"). */
export type SubTier = "1" | "2" | "3";

/** The event's fields, read from Twitch's payload (server/alerts/parse.ts). Never undefined. */
export interface AlertFields {
  /** Display name; "Anonymous" when Twitch sends none; the raiding channel for a raid. */
  user: string;
  /** Bits (cheer), subs gifted (gift), viewers (raid), cumulative months (resub); else null. */
  amount: number | null;
  /** Resub: cumulative months; else null. */
  months: number | null;
  tier: SubTier | null;
  /** Redemption: the reward's title; else null. */
  reward: string | null;
  /** What the viewer wrote (resub message, cheer message, redemption input): plain text, ≤ 500. */
  message: string | null;
}

/** One alert as the overlay plays it. */
export interface Alert {
  /** The history row's id: grows with every alert of every account (the overlay's Last-Event-ID). */
  id: number;
  type: AlertType;
  fields: AlertFields;
  /** When it happened (Unix ms). */
  at: number;
  /** Sent from the dashboard's "send a test alert", not by Twitch. */
  test: boolean;
  /** The type's template filled with the fields (server/alerts/template.ts). */
  text: string;
  durationMs: number;
  imageId: number | null;
  soundId: number | null;
  /** 0–100. */
  volume: number;
}

/** A type's settings; a type never set has the defaults (DEFAULT_ALERT_SETTINGS). */
export interface AlertSettings {
  enabled: boolean;
  /** ≤ 200 characters, placeholders {user} {amount} {months} {tier} {reward} {message} {viewers}. */
  template: string;
  /** cheer: bits ≥ N; raid: viewers ≥ N; gift: subs ≥ N; 0 = any (ignored for other types). */
  minAmount: number;
  /** 2–30. */
  durationSeconds: number;
  /** 0–100. */
  volume: number;
  imageId: number | null;
  soundId: number | null;
  /** A chat line sent through native chat when the alert shows, or null. */
  chatMessage: string | null;
}

export const DEFAULT_TEMPLATES: Readonly<Record<AlertType, string>> = {
  follow: "{user} just followed!",
  subscribe: "{user} subscribed!",
  resub: "{user} subscribed for {months} months!",
  gift: "{user} gifted {amount} subs!",
  cheer: "{user} cheered {amount} bits!",
  raid: "{user} is raiding with {amount} viewers!",
  redemption: "{user} redeemed {reward}!",
};

export function defaultAlertSettings(type: AlertType): AlertSettings {
  return {
    enabled: true,
    template: DEFAULT_TEMPLATES[type],
    minAmount: 0,
    durationSeconds: 6,
    volume: 80,
    imageId: null,
    soundId: null,
    chatMessage: null,
  };
}
