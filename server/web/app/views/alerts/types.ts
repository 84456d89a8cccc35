// The shapes of the alert routes (server/panel/alerts.ts, alert-settings.ts, alert-assets.ts,
// alert-tools.ts) as this view reads them, each type's label and placeholders, and the limits the
// server checks, repeated so the form says them before a round trip.
import { plural } from "../../lib/format.ts";

export const ALERT_TYPES = ["follow", "subscribe", "resub", "gift", "cheer", "raid", "redemption"] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

export type AlertState = "off" | "needs_consent" | "connecting" | "connected" | "error";

export interface AlertSettings {
  enabled: boolean;
  template: string;
  minAmount: number;
  durationSeconds: number;
  volume: number;
  imageId: number | null;
  soundId: number | null;
  chatMessage: string | null;
}

export interface AlertTypeInfo {
  type: AlertType;
  state: AlertState;
  reason: string | null;
  settings: AlertSettings;
}

export interface AlertsInfo {
  enabled: boolean;
  state: AlertState;
  since: string | null;
  reason: string | null;
  consentUrl: string | null;
  types: AlertTypeInfo[];
  overlayUrl: string | null;
  alertsOnlyUrl: string | null;
}

export type AssetKind = "image" | "sound";

export interface AlertAsset {
  id: number;
  kind: AssetKind;
  contentType: string;
  size: number;
  createdAt: string;
}

export interface AssetList {
  items: AlertAsset[];
  limit: number;
}

export interface AlertFields {
  user: string;
  amount: number | null;
  months: number | null;
  tier: "1" | "2" | "3" | null;
  reward: string | null;
  message: string | null;
}

export interface HistoryItem {
  id: number;
  type: AlertType;
  fields: AlertFields;
  test: boolean;
  replay: boolean;
  at: string;
  text: string;
}

export const STATE_TEXT: Record<AlertState, string> = {
  off: "Off",
  needs_consent: "Needs your permission",
  connecting: "Connecting…",
  connected: "Connected",
  error: "Error",
};

interface TypeFacts {
  label: string;
  /** The placeholders that carry something for this type. */
  placeholders: readonly string[];
  /** What a minimum counts, for the types that have one. */
  minimum: string | null;
  /** The demo's simulate button. */
  simulate: string;
}

export const TYPE_FACTS: Record<AlertType, TypeFacts> = {
  follow: { label: "Follow", placeholders: ["user"], minimum: null, simulate: "Simulate a follow" },
  subscribe: {
    label: "Subscription",
    placeholders: ["user", "tier"],
    minimum: null,
    simulate: "Simulate a sub",
  },
  resub: {
    label: "Resub",
    placeholders: ["user", "months", "tier", "message"],
    minimum: null,
    simulate: "Simulate a resub",
  },
  gift: {
    label: "Gifted subs",
    placeholders: ["user", "amount", "tier"],
    minimum: "subs gifted at once",
    simulate: "Simulate a gift of 5",
  },
  cheer: {
    label: "Cheer",
    placeholders: ["user", "amount", "message"],
    minimum: "bits",
    simulate: "Simulate a cheer of 100",
  },
  raid: {
    label: "Raid",
    placeholders: ["user", "viewers", "amount"],
    minimum: "viewers",
    simulate: "Simulate a raid of 42",
  },
  redemption: {
    label: "Channel points",
    placeholders: ["user", "reward", "message"],
    minimum: null,
    simulate: "Simulate a redemption",
  },
};

export const ALERT_LIMITS = {
  templateLength: 200,
  minAmount: { min: 0, max: 1_000_000 },
  durationSeconds: { min: 2, max: 30 },
  volume: { min: 0, max: 100 },
  assetBytes: 1024 * 1024,
} as const;

/** What a history row says of the event's size: "500 bits", "7 months", the reward's title. */
export function amountText(type: AlertType, fields: AlertFields): string {
  const n = fields.amount;
  switch (type) {
    case "cheer":
      return n === null ? "" : plural(n, "bit");
    case "gift":
      return n === null ? "" : plural(n, "sub");
    case "raid":
      return n === null ? "" : plural(n, "viewer");
    case "resub":
      return fields.months === null ? "" : plural(fields.months, "month");
    case "redemption":
      return fields.reward ?? "";
    default:
      return fields.tier ? `tier ${fields.tier}` : "";
  }
}
