// The identity routes: the Twitch login and its callback, linking a chat bot account, and the
// dashboard session. One plugin per group; the order below is the order /docs lists them in.
import { Elysia } from "elysia";
import { botLinkRoutes } from "./routes-bot-link.ts";
import { type CallbackContext, callbackRoutes } from "./routes-callback.ts";
import { type LoginRoutesContext, loginRoutes } from "./routes-login.ts";
import { sessionRoutes } from "./routes-session.ts";

/** What the identity routes read: the callback's context (a superset of linking a bot's) and the login's. */
export type AuthRoutesContext = CallbackContext & LoginRoutesContext;

export function authRoutes(ctx: AuthRoutesContext) {
  return new Elysia({ name: "cuebot.auth-routes" })
    .use(loginRoutes(ctx))
    .use(botLinkRoutes(ctx))
    .use(callbackRoutes(ctx))
    .use(sessionRoutes(ctx));
}
