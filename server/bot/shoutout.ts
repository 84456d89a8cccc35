import { type Static, Type as T } from "@sinclair/typebox";
import type { Account } from "../../db/accounts.ts";
import { grantedScopes } from "../../db/oauth-tokens.ts";
import { withoutCommandLead } from "../core/chat-lead.ts";
import { chatName } from "../core/chat-text.ts";
import { ApiError, badRequest } from "../core/errors.ts";
import { HelixError } from "../twitch/helix-client.ts";
import { SHOUTOUT_SCOPE } from "../twitch/scopes.ts";
import type { ChannelOwnerContext, CommandContext, TwitchLookupContext } from "./context.ts";
import { type CommandReply, defineCommand } from "./definition.ts";
import { channelInfo, findUser } from "./lookups.ts";
import { asChannelOwner, isTwitchTrouble } from "./upstream.ts";

/** What happened to the platform's own shoutout (it needs moderator:manage:shoutouts and a live stream). */
export type PlatformShoutout = "sent" | "not_granted" | "disabled" | "cooldown" | "not_live" | "failed";

const PLATFORM_NOTES: Partial<Record<PlatformShoutout, string>> = {
  cooldown: "(Twitch's own shoutout is cooling down: one every 2 minutes, and once an hour per channel.)",
  not_live: "(Twitch's own shoutout only works while you are live.)",
  failed: "(Twitch's own shoutout could not be sent this time.)",
};

const ShoutoutOptions = T.Object(
  {
    /** Chat line; {name}, {game}, {title} and {link} are replaced. */
    message: T.String({ minLength: 1, maxLength: 300 }),
    /** Also send the platform's own shoutout once the streamer allowed it (`moderator:manage:shoutouts`). */
    platformShoutout: T.Boolean(),
  },
  { additionalProperties: false },
);
type ShoutoutOptions = Static<typeof ShoutoutOptions>;

const DEFAULT_MESSAGE = "Go check out {name}! They were last playing {game}: {link}";
/** The line for a channel that never set a category, and for a template that leaves nothing to say. */
const PLAIN_MESSAGE = "Go check out {name}: {link}";

export function shoutoutText(
  template: string,
  fields: { name: string; game: string; title: string; link: string },
): string {
  return template
    .replaceAll("{name}", fields.name)
    .replaceAll("{game}", fields.game)
    .replaceAll("{title}", fields.title)
    .replaceAll("{link}", fields.link);
}

/**
 * The shoutout's chat line, in native chat and for a chat bot that posts it as it comes (text mode):
 * it never leads with a command character (CONTRACT §6), whatever the template or the other
 * channel's title or category puts there; the plain line when nothing else is left.
 */
function shoutoutLine(template: string, fields: Parameters<typeof shoutoutText>[1]): string {
  return withoutCommandLead(shoutoutText(template, fields)) || shoutoutText(PLAIN_MESSAGE, fields);
}

export async function shoutout(
  ctx: TwitchLookupContext & Pick<CommandContext, "db" | "log">,
  account: Account,
  target: string | undefined,
  options: ShoutoutOptions,
): Promise<CommandReply> {
  if (target === undefined)
    throw badRequest('The query parameter "user" is missing: who should get the shoutout?');
  const user = await findUser(ctx, account, target);
  if (user.id === account.twitchUserId) {
    throw new ApiError(400, "bad_request", "A channel cannot shout itself out.");
  }
  const info = await channelInfo(ctx, account, user.id);
  const link = `https://twitch.tv/${user.login}`;
  const game = info?.game_name || "no category yet";
  let platform: PlatformShoutout = "disabled";
  if (options.platformShoutout) {
    platform = (await grantedScopes(ctx.db, account.id)).includes(SHOUTOUT_SCOPE)
      ? await sendPlatformShoutout(ctx, account, user.id)
      : "not_granted";
  }
  // A channel that never set a category: the default line leaves the category out instead of
  // saying "last playing no category yet"; a custom template still gets its {game} filled.
  const usesDefault = options.message === DEFAULT_MESSAGE;
  const template = !info?.game_name && usesDefault ? PLAIN_MESSAGE : options.message;
  const line = shoutoutLine(template, {
    name: user.display_name,
    game,
    title: info?.title ?? "",
    link,
  });
  const note = PLATFORM_NOTES[platform];
  return {
    user: user.display_name,
    login: user.login,
    game: info?.game_name ?? "",
    title: info?.title ?? "",
    link,
    platform_shoutout: platform,
    text: note ? `${line} ${note}` : line,
  };
}

async function sendPlatformShoutout(
  ctx: ChannelOwnerContext & Pick<CommandContext, "log">,
  account: Account,
  targetId: string,
): Promise<PlatformShoutout> {
  try {
    await asChannelOwner(
      ctx,
      account,
      (api, token) => api.shoutout(token, account.twitchUserId, targetId, account.twitchUserId),
      [400, 429],
    );
    return "sent";
  } catch (error) {
    // The chat line is the command's real answer; the platform shoutout is a bonus that may fail.
    if (error instanceof HelixError && error.status === 429) return "cooldown";
    if (error instanceof HelixError && error.status === 400) return "not_live";
    if (error instanceof ApiError || isTwitchTrouble(error) || error instanceof HelixError) {
      ctx.log.info("the platform shoutout was not sent", { login: account.login, error });
      return "failed";
    }
    throw error;
  }
}

export const shoutoutCommand = defineCommand({
  name: "shoutout",
  description: "Points chat to another channel (and sends the platform shoutout when allowed)",
  options: ShoutoutOptions,
  defaults: { message: DEFAULT_MESSAGE, platformShoutout: true },
  aliases: ["so"],
  inputs: { user: "who to shout out" },
  chat: ["user"],
  route: { path: "/api/bot/shoutout", summary: "Shoutout: the channel's name, last category and link" },
  run: (ctx, account, { args }, options) => shoutout(ctx, account, chatName(args.user), options),
});
