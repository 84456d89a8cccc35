/**
 * The variables of a custom command's response that need Twitch or the game API (variables.ts's
 * `VariableResolvers`), answered through the clients the built-in commands use: Helix as the channel
 * owner (bot/upstream.ts), the channel's category as !shoutout reads it (bot/lookups.ts), !followage's
 * follow dates and cache (bot/followage.ts), the game commands for the configured player
 * (bot/game-commands.ts). A failure is thrown: variables.ts shows the variable's placeholder instead.
 */
import type { Account } from "../../db/accounts.ts";
import { CHAT_BOT_LIMITS } from "../../db/chat-bot-rules.ts";
import { calendarDuration, durationText } from "../bot/duration.ts";
import { followage } from "../bot/followage.ts";
import { type GameCommandName, gameCommand } from "../bot/game-commands.ts";
import { channelInfo } from "../bot/lookups.ts";
import { commandSettings } from "../bot/settings.ts";
import { asChannelOwner } from "../bot/upstream.ts";
import type { CustomContext } from "./context.ts";
import type { VariableResolvers } from "./variables.ts";

/** `$(followage)` and `$(uptime)` say this many units (`3 months, 2 days`). */
const PRECISION = 2;

/**
 * `caller` is who ran the command: `$(followage)` without a name asks about them by their display
 * name (variables.ts shows that), which is not always login-shaped (`데모시청자`), so it is mapped back.
 */
export function variableResolvers(
  ctx: CustomContext,
  account: Account,
  caller?: { login: string; displayName: string },
): VariableResolvers {
  return {
    async uptime() {
      const streams = await asChannelOwner(ctx, account, (api, token) =>
        api.streams(token, [account.twitchUserId]),
      );
      const started = streams[0] ? Date.parse(streams[0].started_at) : Number.NaN;
      if (Number.isNaN(started)) return `${account.displayName} is offline`;
      const since = calendarDuration(new Date(started), new Date(ctx.clock.now()));
      return durationText(since, PRECISION);
    },
    async game() {
      return (await channelInfo(ctx, account, account.twitchUserId))?.game_name ?? "";
    },
    async followage(login: string) {
      const user = caller && login.toLowerCase() === caller.displayName.toLowerCase() ? caller.login : login;
      const input = { channel: account.login, user, precision: PRECISION };
      return (await followage(ctx, account, input)).text;
    },
    async gameCommand(command: GameCommandName) {
      const settings = await commandSettings(ctx, account.id, command);
      return (await gameCommand(ctx, account, command, settings.options)).text;
    },
  };
}

/** The category being streamed, for a quote's record; null when Twitch does not say. */
export async function currentGame(ctx: CustomContext, account: Account): Promise<string | null> {
  try {
    const name = (await channelInfo(ctx, account, account.twitchUserId))?.game_name;
    return name ? [...name].slice(0, CHAT_BOT_LIMITS.gameLength).join("") : null;
  } catch {
    return null;
  }
}
