import { pruneEvents } from "../db/events.ts";
import { deleteExpiredSessions } from "../db/sessions.ts";
import type { Context } from "./runtime.ts";

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Housekeeping that keeps the database small: expired sessions go, and command events older than
 * the retention (CUEBOT_EVENT_RETENTION_DAYS, default 90) are pruned. Runs at start and hourly.
 */
export async function runMaintenance(ctx: Pick<Context, "db" | "clock" | "log" | "config" | "events">) {
  await ctx.events.flush();
  const now = ctx.clock.now();
  const expiredSessions = await deleteExpiredSessions(ctx.db, now);
  const prunedEvents = await pruneEvents(ctx.db, now - ctx.config.eventRetentionDays * DAY_MS);
  if (expiredSessions + prunedEvents > 0) ctx.log.debug("maintenance", { expiredSessions, prunedEvents });
  return { expiredSessions, prunedEvents };
}

export function startMaintenance(ctx: Context): void {
  const run = () => {
    runMaintenance(ctx).catch((error: unknown) => ctx.log.warn("maintenance failed", { error }));
  };
  run();
  const timer = setInterval(run, HOUR_MS);
  ctx.onClose(() => clearInterval(timer));
}
