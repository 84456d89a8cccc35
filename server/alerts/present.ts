/**
 * A stored alert event as the overlay plays it: the type's template filled with the event's fields, the
 * type's duration, image, sound and volume. Pure: the caller reads the event and the settings.
 */
import { passesMinimum } from "./minimum.ts";
import type { Alert, AlertFields, AlertSettings, AlertType } from "./model.ts";
import { fillTemplate } from "./template.ts";

/** What present() needs of a stored alert event (db/alerts.ts keeps more). */
export interface PresentableEvent {
  id: number;
  type: AlertType;
  fields: AlertFields;
  test: boolean;
  /** When it happened (Unix ms). */
  at: number;
  /** The key it is stored under (`replay:…` for a replay the streamer asked for). */
  eventKey?: string;
}

/** The event key prefix of a replay (the dashboard's history "replay"). */
export const REPLAY_KEY_PREFIX = "replay:";

/** The shortest and longest time an alert stays up, whatever a setting says (AlertSettings: 2–30 s). */
const MIN_DURATION_SECONDS = 2;
const MAX_DURATION_SECONDS = 30;

function clamp(value: number, low: number, high: number, fallback: number): number {
  if (!Number.isFinite(value)) return fallback;
  return Math.min(high, Math.max(low, value));
}

/** The alert the overlay plays for `event` under its type's `settings`. */
export function presentAlert(event: PresentableEvent, settings: AlertSettings): Alert {
  const seconds = clamp(settings.durationSeconds, MIN_DURATION_SECONDS, MAX_DURATION_SECONDS, 6);
  return {
    id: event.id,
    type: event.type,
    fields: event.fields,
    at: event.at,
    test: event.test,
    text: fillTemplate(settings.template, event.fields, event.type),
    durationMs: Math.round(seconds * 1000),
    imageId: settings.imageId,
    soundId: settings.soundId,
    volume: Math.round(clamp(settings.volume, 0, 100, 80)),
  };
}

/**
 * Whether the overlay shows `event` at all: its type is on and it reaches the type's minimum (an event
 * below it stays in the history only). A test alert or a replay is shown whatever the settings: it was
 * asked for (live, and as a reconnecting overlay catches up).
 */
export function shownOnOverlay(event: PresentableEvent, settings: AlertSettings): boolean {
  if (event.test || event.eventKey?.startsWith(REPLAY_KEY_PREFIX)) return true;
  return settings.enabled && passesMinimum(event.type, event.fields, settings.minAmount);
}
