import { Elysia, t } from "elysia";
import { CHAT_BOT_LIMITS, checkLogin } from "../../db/chat-bot-rules.ts";
import { addRegular, listRegulars, removeRegular } from "../../db/regulars.ts";
import { findUser } from "../bot/lookups.ts";
import { ApiError } from "../core/errors.ts";
import { authenticatePanel } from "../http/panel-auth.ts";
import type { Context } from "../runtime.ts";
import { bodyObject, FIELD_HEADER, panelDetail, refusalsAnswered, textField } from "./chat-bot-input.ts";

/**
 * The dashboard's regulars (issue 24; Nightbot's `regular` user level). A regular is kept by Twitch
 * user id, since logins change: adding one asks Helix for the login's id (bot/lookups.ts, cached like
 * every user lookup). Without Twitch (no provider configured, Twitch down) nothing is stored and the
 * refusal says why: the list cannot hold a login whose id is unknown, and a guessed one would admit a
 * stranger who takes the name later.
 */

const ADD_EXAMPLE = '{"login": "viewer_anna"}';

export function regularRoutes(ctx: Context) {
  return new Elysia({ name: "cuebot.panel-regulars", prefix: "/api/dashboard" })
    .derive(async ({ request, set }) => ({ principal: await authenticatePanel(ctx, request, set) }))
    .get(
      "/regulars",
      async ({ principal: { account } }) => ({
        status: 200 as const,
        data: { items: await listRegulars(ctx.db, account.id), limit: CHAT_BOT_LIMITS.regularsPerAccount },
      }),
      {
        detail: panelDetail(
          "This channel's regulars (Nightbot's `regular` user level), by login",
          "`data: {items: [{twitchUserId, login, createdAt}], limit}`.",
        ),
      },
    )
    .post(
      "/regulars",
      async ({ principal: { account }, body }) => {
        const fields = bodyObject(body, ["login"], ADD_EXAMPLE);
        const login = await refusalsAnswered(async () => checkLogin(textField(fields, "login", true)));
        const user = await findUser(ctx, account, login);
        const added = await refusalsAnswered(() =>
          addRegular(ctx.db, account.id, { twitchUserId: user.id, login: user.login }, ctx.clock.now()),
        );
        ctx.chatBot.clear();
        return {
          status: 200 as const,
          data: { twitchUserId: user.id, login: user.login.toLowerCase(), added },
        };
      },
      {
        body: t.Unknown({ description: ADD_EXAMPLE }),
        detail: panelDetail(
          "Add a regular by Twitch login (an @ is dropped)",
          "The login is looked up on Twitch: an unknown one is 404 `not_found`. Adding one already listed keeps them (`added: false`) with their current login. At most 1,000 regulars.",
        ),
      },
    )
    .delete(
      "/regulars/:login",
      async ({ principal: { account }, params }) => {
        const login = await refusalsAnswered(
          async () => checkLogin(params.login),
          () => "path parameter",
        );
        const removed = await removeRegular(ctx.db, account.id, { login });
        if (removed.length === 0) {
          throw new ApiError(404, "not_found", `${login} is not on the list of regulars.`, {
            [FIELD_HEADER]: "login",
          });
        }
        ctx.chatBot.clear();
        return { status: 200 as const, data: { removed } };
      },
      { detail: panelDetail("Take a regular off the list, by login") },
    );
}
