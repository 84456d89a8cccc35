import { Elysia } from "elysia";
import { badRequest } from "../core/errors.ts";
import { syncHook } from "./sync-hook.ts";

/**
 * A path parameter Elysia could not percent-decode (`/overlay/%/`, `%E0%A4%A`) reaches a handler as
 * null, which every route would have to check. This checks once, before any handler and after each
 * route's own authentication (a derive), so a wrong credential is still a 401. The answer is 400
 * `bad_request` naming the parameter: the request is malformed, not a link to something missing. The
 * game routes check their segments first, with messages of their own for a bot's unreplaced variables.
 */
export function pathParameters() {
  return new Elysia({ name: "cuebot.path-params" }).onBeforeHandle(
    { as: "global" },
    syncHook(({ params }: { params?: Record<string, unknown> }) => {
      for (const name in params) {
        if (typeof params[name] !== "string") {
          throw badRequest(`The path parameter "${name}" is not valid URL encoding.`);
        }
      }
    }),
  );
}
