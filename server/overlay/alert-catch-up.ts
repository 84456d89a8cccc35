import { readAlertSettings, recentAlertEvents } from "../../db/alerts.ts";
import type { DataStore } from "../../db/data-store.ts";
import type { Alert } from "../alerts/model.ts";
import { presentAlert, shownOnOverlay } from "../alerts/present.ts";

/** How far back a (re)connecting overlay catches up: alerts older than this are never shown. */
export const ALERT_CATCH_UP_MS = 60_000;

/**
 * The account's alerts after `afterId` from the last minute, oldest first, as the overlay plays them
 * (each type's settings as they are now; one off or below its minimum is left out, as it was live).
 */
export async function recentOverlayAlerts(
  db: DataStore,
  accountId: number,
  afterId: number,
  now: number,
): Promise<Alert[]> {
  const events = await recentAlertEvents(db, accountId, afterId, now - ALERT_CATCH_UP_MS);
  if (events.length === 0) return [];
  const settings = await readAlertSettings(db, accountId);
  return events
    .filter((event) => shownOnOverlay(event, settings[event.type]))
    .map((event) => presentAlert(event, settings[event.type]));
}
