// The shapes of the alert routes (server/panel/alerts.ts, alert-settings.ts, alert-assets.ts,
// alert-tools.ts) as this view reads them, and each type's label and placeholders. The words (types,
// states, asset kinds), an alert's fields and settings and the limits the server checks (which the form
// says before a round trip) are cuebot's vocabulary, the server's own.
import type {
  AlertAssetKind,
  AlertFields,
  AlertPlaceholder,
  AlertSettings,
  AlertType,
  ConnectionState,
} from "../../../../vocabulary.ts";
import { plural } from "../../lib/format.ts";

export { ALERT_LIMITS, ALERT_TYPES, type AlertSettings, type AlertType } from "../../../../vocabulary.ts";

export interface AlertTypeInfo {
  type: AlertType;
  state: ConnectionState;
  reason: string | null;
  settings: AlertSettings;
}

export interface AlertsInfo {
  enabled: boolean;
  state: ConnectionState;
  since: string | null;
  reason: string | null;
  consentUrl: string | null;
  types: AlertTypeInfo[];
  overlayUrl: string | null;
  alertsOnlyUrl: string | null;
}

export interface AlertAsset {
  id: number;
  kind: AlertAssetKind;
  contentType: string;
  size: number;
  createdAt: string;
}

export interface AssetList {
  items: AlertAsset[];
  limit: number;
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

interface TypeFacts {
  label: string;
  /** The placeholders that carry something for this type. */
  placeholders: readonly AlertPlaceholder[];
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
