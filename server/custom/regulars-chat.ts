/**
 * A moderator's or the broadcaster's `!regulars add|delete <login>` (custom/regular-lines.ts reads
 * the line): the login is looked up through Helix Get Users (bot/lookups.ts, as the dashboard's
 * regulars are) so the list keeps the stable Twitch id (and a delete finds a regular who renamed),
 * the store changes (db/regulars.ts), chat's cache of regulars is cleared, and one short line says
 * what happened.
 */
import type { Account } from "../../db/accounts.ts";
import { ChatBotDataError } from "../../db/chat-bot-rules.ts";
import { addRegular, removeRegular } from "../../db/regulars.ts";
import type { TwitchLookupContext } from "../bot/context.ts";
import { findUser } from "../bot/lookups.ts";
import { ApiError } from "../core/errors.ts";
import type { CustomContext } from "./context.ts";
import { REGULAR_REPLIES, type RegularRequest } from "./regular-lines.ts";

/** Looking chatters up on Twitch, the stored regulars and chat's cache of them. */
type RegularsContext = TwitchLookupContext & Pick<CustomContext, "db" | "chatBot">;

/** The change a `!regulars` line asks for, made; the reply. */
export async function changeRegulars(
  ctx: RegularsContext,
  account: Account,
  request: RegularRequest,
): Promise<string> {
  switch (request.kind) {
    case "usage":
      return request.reply;
    case "remove":
      return await removeByLogin(ctx, account, request.login);
    case "add":
      return await addByLogin(ctx, account, request.login);
  }
}

/**
 * Off the list by the login as stored; a regular who renamed since is stored under their old login,
 * so a login that matched nothing is looked up and removed by its Twitch user id.
 */
async function removeByLogin(ctx: RegularsContext, account: Account, login: string): Promise<string> {
  let removed = await removeRegular(ctx.db, account.id, { login });
  if (removed.length === 0) {
    try {
      const user = await findUser(ctx, account, login);
      removed = await removeRegular(ctx.db, account.id, { twitchUserId: user.id });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.status !== 404) return REGULAR_REPLIES.twitchAway();
    }
  }
  if (removed.length === 0) return REGULAR_REPLIES.notListed(login);
  ctx.chatBot.clear();
  return REGULAR_REPLIES.removed(login);
}

async function addByLogin(ctx: RegularsContext, account: Account, login: string): Promise<string> {
  let user: { id: string; login: string };
  try {
    user = await findUser(ctx, account, login);
  } catch (error) {
    if (error instanceof ApiError)
      return error.status === 404 ? REGULAR_REPLIES.noSuchUser(login) : REGULAR_REPLIES.twitchAway();
    throw error;
  }
  const shown = user.login.toLowerCase();
  try {
    const added = await addRegular(
      ctx.db,
      account.id,
      { twitchUserId: user.id, login: shown },
      ctx.clock.now(),
    );
    return added ? REGULAR_REPLIES.added(shown) : REGULAR_REPLIES.already(shown);
  } catch (error) {
    if (error instanceof ChatBotDataError && error.code === "limit_reached") return REGULAR_REPLIES.full();
    throw error;
  } finally {
    ctx.chatBot.clear();
  }
}
