// The identity routes: the Twitch login and its callback, linking a chat bot account, and the
// dashboard session. One plugin per group; the order below is the order /docs lists them in.
import { Elysia } from "elysia";
import type { Context } from "../runtime.ts";
import { botLinkRoutes } from "./routes-bot-link.ts";
import { callbackRoutes } from "./routes-callback.ts";
import { loginRoutes } from "./routes-login.ts";
import { sessionRoutes } from "./routes-session.ts";

export function authRoutes(ctx: Context) {
  return new Elysia({ name: "cuebot.auth-routes" })
    .use(loginRoutes(ctx))
    .use(botLinkRoutes(ctx))
    .use(callbackRoutes(ctx))
    .use(sessionRoutes(ctx));
}
