import { ALERT_LIMITS } from "../../db/alert-rules.ts";
import { alertHistory, type StoredAlertEvent } from "../../db/alerts.ts";
import type { EventRow } from "../../db/events.ts";
import { DEFAULT_TEMPLATES } from "../alerts/model.ts";
import { fillTemplate } from "../alerts/template.ts";
import type { Context } from "../runtime.ts";
import type { CommandRefusal } from "../vocabulary.ts";
import { REPLAY_KEY_PREFIX } from "./alert-tools.ts";

/**
 * The overview's activity feed (`GET /api/dashboard/activity`) with the channel's real follows, subs,
 * gifts, cheers, raids and redemptions from the alert history beside the command calls, newest first.
 * Test alerts and replays are the dashboard's own, not a viewer's: they are left out. The pages still
 * follow the command calls' cursor: a page holds the alerts from its oldest command call (when a page
 * follows it) up to the call the cursor named, so paging never shows an alert twice or skips one.
 */

export interface CommandActivity {
  kind: "command";
  id: number;
  at: string;
  command: string;
  caller: string;
  outcome: string;
  latency_ms: number;
  /** A run from the dashboard (a command's test, Bot setup's "Test this line"): not a viewer's call. */
  test: boolean;
  /** Why chat got no reply (a limit refused the command); null when it ran. */
  refused: CommandRefusal | null;
}

export interface AlertActivity {
  kind: "alert";
  id: number;
  at: string;
  type: StoredAlertEvent["type"];
  user: string;
  amount: number | null;
  /** What happened in words, e.g. "Mossy_Owl cheered 100 bits!" (the default template, not the streamer's). */
  text: string;
}

export type ActivityItem = CommandActivity | AlertActivity;

/** The time span (Unix ms) of one page: `from` included, `until` not. */
export interface ActivityWindow {
  from: number;
  until: number;
}

/** Whether Twitch sent it (not a test or a replay from the dashboard). */
export function isViewerEvent(event: StoredAlertEvent): boolean {
  return !event.test && !event.eventKey.startsWith(REPLAY_KEY_PREFIX);
}

export function commandActivity(row: EventRow): CommandActivity {
  return {
    kind: "command",
    id: row.id,
    at: new Date(row.at).toISOString(),
    command: row.command,
    caller: row.caller,
    outcome: row.outcome,
    latency_ms: row.latencyMs,
    test: row.test,
    refused: row.refused,
  };
}

export function alertActivity(event: StoredAlertEvent): AlertActivity {
  return {
    kind: "alert",
    id: event.id,
    at: new Date(event.at).toISOString(),
    type: event.type,
    user: event.fields.user,
    amount: event.fields.amount,
    text: fillTemplate(DEFAULT_TEMPLATES[event.type], event.fields, event.type),
  };
}

/** One page: the command rows (newest first) and the viewer events inside the window, merged newest first. */
export function mergeActivity(
  commands: readonly EventRow[],
  alerts: readonly StoredAlertEvent[],
  window: ActivityWindow,
): ActivityItem[] {
  const inWindow = alerts.filter((a) => isViewerEvent(a) && a.at >= window.from && a.at < window.until);
  const timed: { at: number; item: ActivityItem }[] = [
    ...commands.map((row) => ({ at: row.at, item: commandActivity(row) as ActivityItem })),
    ...inWindow.map((event) => ({ at: event.at, item: alertActivity(event) as ActivityItem })),
  ];
  return timed.sort((a, b) => b.at - a.at).map((entry) => entry.item);
}

/** The window of a page of command rows: down to its oldest row when another page follows, else to the start. */
export function activityWindow(rows: readonly EventRow[], full: boolean, until: number): ActivityWindow {
  return { from: full ? (rows.at(-1)?.at ?? Number.NEGATIVE_INFINITY) : Number.NEGATIVE_INFINITY, until };
}

/** The account's kept alerts (the newest 200), to merge into a page. */
export function keptAlerts(ctx: Context, accountId: number): Promise<StoredAlertEvent[]> {
  return alertHistory(ctx.db, accountId, ALERT_LIMITS.eventsKept);
}
