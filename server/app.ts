import { Elysia } from "elysia";
import { botRoutes } from "./bot/routes.ts";
import { gameRoutes } from "./game/routes.ts";
import { healthRoutes } from "./health/routes.ts";
import { bodyLimit } from "./http/body-limit.ts";
import { csrfProtection } from "./http/csrf.ts";
import { errorHandling } from "./http/errors.ts";
import { externalChanges } from "./http/external-changes.ts";
import { ipLimits } from "./http/ip-limits.ts";
import { apiDocs } from "./http/openapi.ts";
import { pathParameters } from "./http/path-params.ts";
import { replies } from "./http/replies.ts";
import { requestLog } from "./http/request-log.ts";
import { securityHeaders } from "./http/security-headers.ts";
import { authRoutes } from "./identity/routes.ts";
import { obsRelayRoutes } from "./obs/routes-relay.ts";
import { overlayRoutes } from "./overlay/routes.ts";
import { overlayAlertRoutes } from "./overlay/routes-alerts.ts";
import { actionRunRoutes } from "./panel/action-runs.ts";
import { actionPanelRoutes } from "./panel/actions.ts";
import { alertAssetRoutes } from "./panel/alert-assets.ts";
import { alertSettingsRoutes } from "./panel/alert-settings.ts";
import { alertToolRoutes } from "./panel/alert-tools.ts";
import { alertPanelRoutes } from "./panel/alerts.ts";
import { chatPanelRoutes } from "./panel/chat.ts";
import { commandRoutes } from "./panel/commands.ts";
import { customCommandToolRoutes } from "./panel/custom-command-tools.ts";
import { customCommandRoutes } from "./panel/custom-commands.ts";
import { heavyRoutes } from "./panel/heavy.ts";
import { insightRoutes } from "./panel/insights.ts";
import { moderationPanelRoutes } from "./panel/moderation.ts";
import { obsPanelRoutes } from "./panel/obs.ts";
import { quoteRoutes } from "./panel/quotes.ts";
import { regularRoutes } from "./panel/regulars.ts";
import { securityRoutes } from "./panel/security.ts";
import { timerRoutes } from "./panel/timers.ts";
import type { Context } from "./runtime.ts";
import { webRoutes } from "./web/routes.ts";

export interface AppOptions {
  /** The admin commands announce their changes to this server (server/start.ts): no per-request look. */
  changesAnnounced?: boolean;
}

/**
 * The one place that shows how a request flows: cross-cutting layers first, in order, then one
 * `.use()` per feature. No listening here, so tests call `app.handle()` on a fresh app.
 * The hooks on the request path are synchronous and say so (syncHook), so the path stays free of
 * microtask hops up to the route handler. The request log (debug level only) wraps the whole handler,
 * so it sees every request, whichever layer answers it.
 */
export function createApp(ctx: Context, options: AppOptions = {}) {
  return new Elysia({ name: "cuebot.app" })
    .use(externalChanges(ctx, options.changesAnnounced === true))
    .use(securityHeaders())
    .use(errorHandling(ctx.log))
    .use(ipLimits(ctx))
    .use(bodyLimit(ctx))
    .use(csrfProtection(ctx))
    .use(pathParameters())
    .use(replies())
    .use(requestLog(ctx))
    .use(apiDocs())
    .use(healthRoutes())
    .use(webRoutes(ctx))
    .use(authRoutes(ctx))
    .use(securityRoutes(ctx))
    .use(heavyRoutes(ctx))
    .use(commandRoutes(ctx))
    .use(chatPanelRoutes(ctx))
    .use(customCommandToolRoutes(ctx))
    .use(customCommandRoutes(ctx))
    .use(quoteRoutes(ctx))
    .use(timerRoutes(ctx))
    .use(regularRoutes(ctx))
    .use(alertPanelRoutes(ctx))
    .use(
      new Elysia({ name: "cuebot.panel-stream" })
        .use(moderationPanelRoutes(ctx))
        .use(obsPanelRoutes(ctx))
        .use(actionPanelRoutes(ctx))
        .use(actionRunRoutes(ctx)),
    )
    .use(alertSettingsRoutes(ctx))
    .use(alertAssetRoutes(ctx))
    .use(alertToolRoutes(ctx))
    .use(insightRoutes(ctx))
    .use(overlayRoutes(ctx))
    .use(new Elysia({ name: "cuebot.overlay-streams" }).use(overlayAlertRoutes(ctx)).use(obsRelayRoutes(ctx)))
    .use(botRoutes(ctx))
    .use(gameRoutes(ctx));
}

export type App = ReturnType<typeof createApp>;
