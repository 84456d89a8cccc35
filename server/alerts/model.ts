/**
 * Stream alerts (issue 25): what cuebot keeps of an event and shows on the overlay. The same shape
 * travels on the overlay's alert stream, in the dashboard's history and in the store (`fields`).
 */
import type { AlertFields } from "../../db/alert-rules.ts";
import type { AlertType } from "../../db/schema-enums.ts";

export type { AlertFields, AlertSettings, SubTier } from "../../db/alert-rules.ts";
// The stored shapes live with the store (db/ imports nothing from server/); the feature reads them here.
export { DEFAULT_TEMPLATES, defaultAlertSettings } from "../../db/alert-rules.ts";
export { ALERT_TYPES, parseAlertType } from "../../db/schema-enums.ts";
export type { AlertType };

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
