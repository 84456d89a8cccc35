import { Elysia } from "elysia";
import { redactPath } from "../core/log.ts";
import { andThen } from "../core/maybe-promise.ts";
import type { Context } from "../runtime.ts";
import { asHandle, oncePerHandler } from "./handler-wrap.ts";
import { requestInfo } from "./request-info.ts";

/**
 * One line per request at debug level, with the status of the Response actually sent and how long it
 * took. It wraps Elysia's whole handler, so every request is seen, also those answered before any
 * route runs (unknown paths, refusals of the limit and body layers, errors): lifecycle hooks miss
 * those, or see a status that was reset once the reply was built. Credentials are redacted (an
 * overlay page path however it is spelled; credential query values by the logger). The level is
 * fixed for the life of the server, so when debug is off the layer adds nothing at all.
 */
export function requestLog(ctx: Context) {
  const plugin = new Elysia({ name: "cuebot.request-log" });
  if (!ctx.log.isEnabled("debug")) return plugin;
  const write = (request: Request, response: Response, startedAt: number) => {
    const info = requestInfo(request);
    ctx.log.debug("request", {
      method: request.method,
      path: `${redactPath(info.path)}${info.search}`,
      status: response.status,
      ms: Math.round((performance.now() - startedAt) * 10) / 10,
    });
  };
  const logged = oncePerHandler((handle) => (request) => {
    const startedAt = performance.now();
    return andThen(handle(request), (response) => {
      write(request, response, startedAt);
      return response;
    });
  });
  return plugin.wrap((elysiaHandle) => logged(asHandle(elysiaHandle)));
}
