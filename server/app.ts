import { Elysia } from "elysia";
import type { Context } from "./context.ts";
import { gameRoutes } from "./game/routes.ts";
import { healthRoutes } from "./health/routes.ts";
import { errorHandling } from "./http/errors.ts";
import { requestLog } from "./http/request-log.ts";
import { securityHeaders } from "./http/security-headers.ts";
import { textMode } from "./http/text-mode.ts";

/**
 * The one place that shows how a request flows: cross-cutting layers first, in order, then one
 * `.use()` per feature. No listening here, so tests call `app.handle()` on a fresh app.
 */
export function createApp(ctx: Context) {
  return new Elysia({ name: "cuebot.app" })
    .use(securityHeaders())
    .use(errorHandling(ctx))
    .use(textMode())
    .use(requestLog(ctx))
    .use(healthRoutes())
    .use(gameRoutes(ctx));
}

export type App = ReturnType<typeof createApp>;
