// The identity routes: the Twitch login and its callback, linking a chat bot account, the
// dashboard session, and the first run's setup page. One plugin per group; the order below is the order /docs lists them in.
import { Elysia } from "elysia";
import { botLinkRoutes } from "./routes-bot-link.ts";
import { type CallbackContext, callbackRoutes } from "./routes-callback.ts";
import { type LoginRoutesContext, loginRoutes } from "./routes-login.ts";
import { sessionRoutes } from "./routes-session.ts";
import { type SetupRoutesContext, setupRoutes } from "./routes-setup.ts";

/** What the identity routes read: the callback's context (a superset of linking a bot's) and the login's. */
export type AuthRoutesContext = CallbackContext & LoginRoutesContext & SetupRoutesContext;

export function authRoutes(ctx: AuthRoutesContext) {
  return new Elysia({ name: "cuebot.auth-routes" })
    .use(loginRoutes(ctx))
    .use(botLinkRoutes(ctx))
    .use(callbackRoutes(ctx))
    .use(sessionRoutes(ctx))
    .use(setupRoutes(ctx));
}
