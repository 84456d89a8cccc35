import { Elysia } from "elysia";
import type { Context } from "../context.ts";
import { requestInfo } from "./request-info.ts";

/**
 * One line per request at debug level; credential query values are redacted by the logger. The level
 * is fixed for the life of the server, so when debug is off the layer adds no hook at all and costs
 * nothing per request.
 */
export function requestLog(ctx: Context) {
  const plugin = new Elysia({ name: "cuebot.request-log" });
  if (!ctx.log.isEnabled("debug")) return plugin;
  return plugin
    .derive({ as: "global" }, () => ({ startedAt: performance.now() }))
    .onAfterResponse({ as: "global" }, ({ request, set, startedAt, responseValue }) => {
      const info = requestInfo(request);
      // Replies built once (finalResponse) carry their own status and leave `set` at 200.
      const status =
        responseValue instanceof Response
          ? responseValue.status
          : typeof set.status === "number"
            ? set.status
            : 200;
      ctx.log.debug("request", {
        method: request.method,
        path: `${info.path}${info.search}`,
        status,
        ms: startedAt === undefined ? undefined : Math.round((performance.now() - startedAt) * 10) / 10,
      });
    });
}
