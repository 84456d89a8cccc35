import { Elysia } from "elysia";
import type { Context } from "../context.ts";

/** One line per request; credential query values are redacted by the logger. */
export function requestLog(ctx: Context) {
  return new Elysia({ name: "cuebot.request-log" })
    .derive({ as: "global" }, () => ({ startedAt: performance.now() }))
    .onAfterResponse({ as: "global" }, ({ request, set, startedAt }) => {
      if (!ctx.log.isEnabled("debug")) return;
      const url = new URL(request.url);
      ctx.log.debug("request", {
        method: request.method,
        path: `${url.pathname}${url.search}`,
        status: typeof set.status === "number" ? set.status : 200,
        ms: startedAt === undefined ? undefined : Math.round((performance.now() - startedAt) * 10) / 10,
      });
    });
}
