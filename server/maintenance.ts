import { deleteExpiredSessions } from "../db/sessions.ts";
import type { Context } from "./context.ts";

const HOUR_MS = 60 * 60_000;

/** Housekeeping that keeps the database small: expired sessions go. Runs at start and hourly. */
export function runMaintenance(ctx: Pick<Context, "db" | "clock" | "log">): { expiredSessions: number } {
  const expiredSessions = deleteExpiredSessions(ctx.db, ctx.clock.now());
  if (expiredSessions > 0) ctx.log.debug("removed expired sessions", { count: expiredSessions });
  return { expiredSessions };
}

export function startMaintenance(ctx: Context): void {
  const run = () => {
    try {
      runMaintenance(ctx);
    } catch (error) {
      ctx.log.warn("maintenance failed", { error });
    }
  };
  run();
  const timer = setInterval(run, HOUR_MS);
  ctx.onClose(() => clearInterval(timer));
}
