import type { Account } from "../../db/accounts.ts";
import type { Followage } from "../cache/followed-at-cache.ts";
import { chatName } from "../core/chat-text.ts";
import { ApiError, badRequest } from "../core/errors.ts";
import { andThen, type MaybePromise } from "../core/maybe-promise.ts";
import { integerParam } from "../core/params.ts";
import type { HelixUser } from "../twitch/helix-client.ts";
import type { CommandContext, TwitchLookupContext } from "./context.ts";
import { type CommandReply, defineCommand, NO_OPTIONS } from "./definition.ts";
import { type CalendarDuration, calendarDuration, DEFAULT_PRECISION, durationText } from "./duration.ts";
import { findUser, requireOwnChannel } from "./lookups.ts";
import { asChannelOwner } from "./upstream.ts";

export interface FollowageInput {
  channel?: string;
  user?: string;
  precision: number;
}

export interface FollowageReply extends CommandReply {
  channel: string;
  user: string;
  following: boolean;
  followed_at: string | null;
  duration: CalendarDuration | null;
}

/**
 * How long `user` has followed the key owner's channel. The follow date is cached (per the owner's
 * role); the elapsed time is computed from it on every call, so a cached answer never goes stale.
 */
export function followage(
  ctx: TwitchLookupContext & Pick<CommandContext, "clock">,
  account: Account,
  input: FollowageInput,
): MaybePromise<FollowageReply> {
  requireOwnChannel(account, input.channel);
  if (input.user === undefined) {
    throw badRequest(
      'The query parameter "user" is missing (use your bot\'s user variable, e.g. $(touser)).',
    );
  }
  if (input.user.toLowerCase() === account.login) {
    throw new ApiError(400, "bad_request", "A user cannot follow themself.");
  }
  // Both lookups answer at once from their caches, so a repeated !followage makes no promise.
  return andThen(findUser(ctx, account, input.user), (user) => {
    if (user.id === account.twitchUserId)
      throw new ApiError(400, "bad_request", "A user cannot follow themself.");
    const follow = ctx.caches.followedAt.followage(account.twitchUserId, user.login, account.role, () =>
      asChannelOwner(ctx, account, async (api, token) => {
        const record = await api.follower(token, account.twitchUserId, user.id);
        return { following: record !== null, followedAt: record ? Date.parse(record.followed_at) : null };
      }),
    );
    return andThen(follow, (facts) => followageReply(ctx, account, user, facts, input.precision));
  });
}

function followageReply(
  ctx: Pick<CommandContext, "clock">,
  account: Account,
  user: HelixUser,
  follow: Followage,
  precision: number,
): FollowageReply {
  if (!follow.following || follow.followedAt === null) {
    return {
      channel: account.displayName,
      user: user.display_name,
      following: false,
      followed_at: null,
      duration: null,
      text: `${user.display_name} does not follow ${account.displayName}`,
    };
  }
  const duration = calendarDuration(new Date(follow.followedAt), new Date(ctx.clock.now()));
  return {
    channel: account.displayName,
    user: user.display_name,
    following: true,
    followed_at: new Date(follow.followedAt).toISOString(),
    duration,
    text: durationText(duration, precision),
  };
}

export const followageCommand = defineCommand({
  name: "followage",
  description: "How long a viewer has followed the channel",
  options: NO_OPTIONS,
  defaults: {},
  aliases: [],
  inputs: {
    channel: "the key owner's channel (falls back to Nightbot-Channel)",
    user: "the viewer (falls back to Nightbot-User)",
    precision: "how many non-zero units the text shows, 1–7 (default 2)",
  },
  chat: ["user"],
  route: { path: "/api/followage", summary: "How long a viewer has followed the channel" },
  run: (ctx, account, { args, caller }) =>
    followage(ctx, account, {
      channel: chatName(args.channel) ?? caller.channel,
      user: chatName(args.user) ?? caller.user,
      precision: integerParam(args.precision, "precision", { min: 1, max: 7, fallback: DEFAULT_PRECISION }),
    }),
});
