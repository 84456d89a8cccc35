import type { Context } from "../runtime.ts";
import { startAlertsManager } from "./manager.ts";

/**
 * Alerts run wherever the live layer runs (with Redis, on the chat lease holder): started on its
 * sessions when it starts (live/hooks.ts `started`), answering `ctx.alertsStatus` until it stops.
 */
export function bindAlerts(ctx: Context): void {
  ctx.live.hooks.started.bind((start) => {
    const runtime = startAlertsManager(ctx, start.sessions);
    ctx.alertsStatus.useLive(runtime);
    return {
      close(stop) {
        ctx.alertsStatus.release(runtime);
        return runtime.close(stop);
      },
    };
  });
}
