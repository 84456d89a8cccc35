import type { LiveFeature } from "../live/features.ts";
import type { AlertsContext } from "./context.ts";
import { startAlertsManager } from "./manager.ts";

/**
 * Alerts run beside native chat (with Redis, on the chat lease holder): started on its live sessions
 * (live/features.ts), answering `ctx.alertsStatus` until they stop.
 */
export const alertsBesideChat =
  (ctx: AlertsContext): LiveFeature =>
  (start) => {
    const runtime = startAlertsManager(ctx, start.sessions);
    ctx.alertsStatus.useLive(runtime);
    return {
      close(stop) {
        ctx.alertsStatus.release(runtime);
        return runtime.close(stop);
      },
    };
  };
