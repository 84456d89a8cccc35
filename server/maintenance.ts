import { pruneEvents } from "../db/events.ts";
import { clearModerationTexts, deleteModerationLogBefore } from "../db/moderation.ts";
import { deleteExpiredSessions } from "../db/sessions.ts";
import type { Context } from "./runtime.ts";
import { MODERATION_LIMITS } from "./vocabulary.ts";

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Housekeeping that keeps the database small: expired sessions go, and command events and moderation
 * log entries older than the retention (CUEBOT_EVENT_RETENTION_DAYS, default 90) are pruned; the
 * texts the moderation log caught are cleared after 7 days (CONTRACT §6). Runs at start and hourly.
 */
export async function runMaintenance(ctx: Pick<Context, "db" | "clock" | "log" | "config" | "events">) {
  await ctx.events.flush();
  const now = ctx.clock.now();
  const expiredSessions = await deleteExpiredSessions(ctx.db, now);
  const retentionCutoff = now - ctx.config.eventRetentionDays * DAY_MS;
  const prunedEvents = await pruneEvents(ctx.db, retentionCutoff);
  const prunedModeration = await deleteModerationLogBefore(ctx.db, retentionCutoff);
  const clearedTexts = await clearModerationTexts(ctx.db, now - MODERATION_LIMITS.logTextDays * DAY_MS);
  const done = { expiredSessions, prunedEvents, prunedModeration, clearedTexts };
  if (Object.values(done).some((n) => n > 0)) ctx.log.debug("maintenance", done);
  return done;
}

export function startMaintenance(ctx: Context): void {
  const run = () => {
    runMaintenance(ctx).catch((error: unknown) => ctx.log.warn("maintenance failed", { error }));
  };
  run();
  const timer = setInterval(run, HOUR_MS);
  ctx.onClose(() => clearInterval(timer));
}
