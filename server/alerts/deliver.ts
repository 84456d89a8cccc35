import { readAlertSettings, recordAlertEvent, type StoredAlertEvent } from "../../db/alerts.ts";
import type { AlertsContext } from "./context.ts";
import type { AlertFloodGuard } from "./flood.ts";
import type { AlertFields, AlertSettings, AlertType } from "./model.ts";
import { parseAlertEvent } from "./parse.ts";
import { presentAlert, shownOnOverlay } from "./present.ts";
import type { AlertNotification } from "./readers.ts";
import { chatThanksLine } from "./template.ts";

type DeliveryContext = Pick<AlertsContext, "db" | "clock" | "alerts" | "live">;

/** An alert on its way: who it is for, what happened, and the key it is stored under. */
export interface AlertToDeliver {
  accountId: number;
  type: AlertType;
  fields: AlertFields;
  /** Unique per account: the EventSub message id, the event's own id, or `test:<uuid>`. */
  eventKey: string;
  test: boolean;
  /** When it happened (Unix ms). */
  at: number;
}

/** What became of an alert (tests and the dashboard's test button read it). */
export type Delivered =
  | { outcome: "off" | "duplicate" }
  | { outcome: "stored" | "shown"; event: StoredAlertEvent; chatLine: string | null };

/**
 * Stores an alert and shows it: the type off → nothing; seen before under its key (Twitch redelivered
 * it, or another instance stored it first) → nothing; else told to the `alertReceived` hook (not a
 * test alert), then below the type's minimum → kept in the history
 * only; otherwise published on every overlay of the account (ctx.alerts) and, when the type has a
 * chat message and native chat is connected on this instance, thanked for in chat through chat's
 * send queue (not while more than a couple of lines wait there, and per type at most once per
 * THANKS_GAP_MS with a `flood` guard). A test alert is shown whatever the settings, without a chat line.
 */
export async function deliverAlert(
  ctx: DeliveryContext,
  alert: AlertToDeliver,
  flood?: AlertFloodGuard,
): Promise<Delivered> {
  const settings: AlertSettings = (await readAlertSettings(ctx.db, alert.accountId))[alert.type];
  if (!alert.test && !settings.enabled) return { outcome: "off" };
  const event = await recordAlertEvent(ctx.db, alert);
  if (!event) return { outcome: "duplicate" };
  // Before the overlay: what reacts to the event (actions) starts now, not behind the overlay's queue.
  const received = ctx.live.hooks.alertReceived;
  if (!alert.test && received.bound)
    received.emit({ accountId: alert.accountId, type: alert.type, fields: event.fields }, undefined);
  if (!shownOnOverlay(event, settings)) return { outcome: "stored", event, chatLine: null };
  ctx.alerts.publish(alert.accountId, presentAlert(event, settings));
  const thanks =
    !alert.test && settings.chatMessage !== null && (flood?.admitThanks(alert.type, alert.at) ?? true);
  const line =
    thanks && settings.chatMessage !== null
      ? chatThanksLine(settings.chatMessage, event.fields, event.type)
      : null;
  // Native chat, bound to the hook where it runs, says the line when it can (live/hooks.ts).
  const delivered = { accountId: alert.accountId, type: alert.type, chatLine: line };
  const said = ctx.live.hooks.alertDelivered.collect(delivered, undefined).some(Boolean) && line !== null;
  return { outcome: "shown", event, chatLine: said ? line : null };
}

/** Whose alert a received notification is. */
export interface NotificationTarget {
  accountId: number;
  broadcasterId: string;
  /** The channel's flood limits (repeat follows, thanks lines). */
  flood: AlertFloodGuard;
}

/**
 * One EventSub notification of the streamer's session, seen for the first time there (live/feed-routes.ts;
 * across instances the store's unique key drops a copy), read (server/alerts/parse.ts) into an alert. A redemption is keyed by its own id, so a recreated subscription's redelivery is one alert; a
 * follower who follows again within FOLLOW_REPEAT_MS (a follow/unfollow wave) is shown once.
 */
export async function onAlertNotification(
  ctx: DeliveryContext,
  target: NotificationTarget,
  frame: AlertNotification,
): Promise<Delivered | null> {
  const parsed = parseAlertEvent(frame.subscriptionType, frame.raw, target.broadcasterId);
  if (!parsed) return null;
  // The server's clock, as the overlay's catch-up window counts it.
  const at = ctx.clock.now();
  if (parsed.type === "follow" && !target.flood.admitFollow(followerId(frame.raw), at))
    return { outcome: "duplicate" };
  const eventKey = parsed.naturalKey ? `${parsed.type}:${parsed.naturalKey}` : frame.id;
  const alert = {
    accountId: target.accountId,
    type: parsed.type,
    fields: parsed.fields,
    eventKey,
    test: false,
    at,
  };
  return deliverAlert(ctx, alert, target.flood);
}

/** The follower's user id in a channel.follow event, or null when it has none. */
function followerId(raw: unknown): string | null {
  if (typeof raw !== "object" || raw === null) return null;
  const id = (raw as { user_id?: unknown }).user_id;
  return typeof id === "string" && id !== "" ? id : null;
}
