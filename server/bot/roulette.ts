import { type Static, Type as T } from "@sinclair/typebox";
import type { Account } from "../../db/accounts.ts";
import { grantedScopes } from "../../db/oauth-tokens.ts";
import { chatName } from "../core/chat-text.ts";
import { ApiError, badRequest } from "../core/errors.ts";
import type { HelixApi } from "../twitch/helix-api.ts";
import { HelixError } from "../twitch/helix-client.ts";
import { canListModerators } from "../twitch/scopes.ts";
import { MAX_TIMEOUT_SECONDS } from "../vocabulary.ts";
import { pickOne, rouletteLoses } from "./chance.ts";
import type { ChannelOwnerContext, CommandContext, TwitchLookupContext } from "./context.ts";
import { type CommandReply, defineCommand } from "./definition.ts";
import { calendarDuration, durationText } from "./duration.ts";
import { chattersOf, findUser } from "./lookups.ts";
import { asChannelOwner, twitchUnavailable } from "./upstream.ts";

/**
 * Roulette: the caller pulls the trigger (one chamber in N is loaded), or with `target=random` the
 * gun picks someone from chat. The loser is timed out through the Ban API. The broadcaster,
 * moderators and VIPs (and subscribers, when the channel protects them) are never timed out; when
 * cuebot cannot tell whether someone is a moderator, it times out nobody rather than guess.
 */

const RouletteOptions = T.Object(
  {
    timeoutSeconds: T.Integer({ minimum: 1, maximum: MAX_TIMEOUT_SECONDS }),
    /** One chamber in this many is loaded. */
    chambers: T.Integer({ minimum: 2, maximum: 12 }),
    /** Subscribers are immune too. */
    protectSubscribers: T.Boolean(),
  },
  { additionalProperties: false },
);
type RouletteOptions = Static<typeof RouletteOptions>;

/** What a roulette reads: the chat's lists from Twitch, the grant's scopes, chance. */
type RouletteContext = TwitchLookupContext & Pick<CommandContext, "db" | "random">;

export type Immunity = "the broadcaster" | "a moderator" | "a VIP" | "a subscriber";

interface RoleLists {
  moderators: Set<string> | null;
  vips: Set<string> | null;
  subscribers: Set<string> | null;
}

/** Moderators, VIPs and subscribers the grant lets us list, cached per §8.3 ("eligibility"). */
async function roleLists(
  ctx: TwitchLookupContext & Pick<CommandContext, "db">,
  account: Account,
  withSubscribers: boolean,
): Promise<RoleLists> {
  const scopes = await grantedScopes(ctx.db, account.id);
  const cache = ctx.caches.panel<Set<string>>("eligibility");
  const list = (
    name: string,
    granted: boolean,
    load: (api: HelixApi, token: string) => Promise<Set<string>>,
  ) =>
    granted
      ? cache.getOrLoad(`${account.id}:${name}`, account.role, () => asChannelOwner(ctx, account, load))
      : Promise.resolve(null);
  const [moderators, vips, subscribers] = await Promise.all([
    list("moderators", canListModerators(scopes), (api, t) => api.moderatorIds(t, account.twitchUserId)),
    list("vips", scopes.includes("channel:read:vips"), (api, t) => api.vipIds(t, account.twitchUserId)),
    list("subscribers", withSubscribers && scopes.includes("channel:read:subscriptions"), (api, t) =>
      api.subscriberIds(t, account.twitchUserId),
    ),
  ]);
  return { moderators, vips, subscribers };
}

/**
 * Why `userId` may not be timed out, "unknown" when moderator status cannot be checked, or null.
 * `callerLevel` is the chat bot's word for the caller (Nightbot's userLevel), used only when the
 * moderator list is out of reach.
 */
export function immunityOf(
  userId: string,
  account: Account,
  lists: RoleLists,
  protectSubscribers: boolean,
  callerLevel?: string,
): Immunity | "unknown" | null {
  if (userId === account.twitchUserId || callerLevel === "owner") return "the broadcaster";
  if (lists.moderators?.has(userId) || callerLevel === "moderator") return "a moderator";
  if (lists.vips?.has(userId) || callerLevel === "twitch_vip") return "a VIP";
  if (protectSubscribers && (lists.subscribers?.has(userId) || callerLevel === "subscriber"))
    return "a subscriber";
  if (lists.moderators === null && callerLevel === undefined) return "unknown";
  return null;
}

function timeoutLength(seconds: number): string {
  return durationText(calendarDuration(new Date(0), new Date(seconds * 1000)), 2);
}

/** Times the loser out; Twitch refusing this particular user (400) is reported, not thrown. */
async function timeOut(
  ctx: ChannelOwnerContext,
  account: Account,
  userId: string,
  seconds: number,
): Promise<"done" | "refused"> {
  const attempt = () =>
    asChannelOwner(
      ctx,
      account,
      (api, token) =>
        api.timeout(token, {
          broadcasterId: account.twitchUserId,
          moderatorId: account.twitchUserId,
          userId,
          seconds,
          reason: "Lost the roulette (cuebot)",
        }),
      [400, 403, 409],
    );
  try {
    try {
      await attempt();
    } catch (error) {
      // 409: someone else changed this user's ban state at the same moment; once more is enough.
      if (error instanceof HelixError && error.status === 409) await attempt();
      else throw error;
    }
    return "done";
  } catch (error) {
    if (error instanceof HelixError && error.status === 400) return "refused";
    if (error instanceof HelixError && error.status === 403) {
      throw new ApiError(
        403,
        "forbidden",
        `cuebot may not time out viewers in ${account.displayName}'s chat; log in to cuebot again to grant it.`,
      );
    }
    if (error instanceof HelixError) throw twitchUnavailable();
    throw error;
  }
}

export interface RouletteInput {
  /** The player (caller mode). */
  user?: string;
  random: boolean;
  callerLevel?: string;
}

export async function roulette(
  ctx: RouletteContext,
  account: Account,
  input: RouletteInput,
  options: RouletteOptions,
): Promise<CommandReply> {
  const lists = await roleLists(ctx, account, options.protectSubscribers);
  const duration = timeoutLength(options.timeoutSeconds);
  if (input.random) return randomRoulette(ctx, account, lists, options, duration);
  if (input.user === undefined) {
    throw badRequest('The query parameter "user" is missing: who pulls the trigger? (or use target=random)');
  }
  const player = await findUser(ctx, account, input.user);
  const immunity = immunityOf(player.id, account, lists, options.protectSubscribers, input.callerLevel);
  const base = { user: player.display_name, mode: "caller" };
  if (!rouletteLoses(ctx.random, options.chambers)) {
    return {
      ...base,
      lost: false,
      timed_out: false,
      text: `*click* — ${player.display_name} survives the roulette.`,
    };
  }
  if (immunity === "unknown") {
    return {
      ...base,
      lost: true,
      timed_out: false,
      text: `💥 BANG! ${player.display_name} lost, but cuebot cannot check moderators without the moderation:read permission, so nobody is timed out.`,
    };
  }
  if (immunity) {
    return {
      ...base,
      lost: true,
      timed_out: false,
      immune: immunity,
      text: `💥 BANG! ${player.display_name} is immune as ${immunity}.`,
    };
  }
  const outcome = await timeOut(ctx, account, player.id, options.timeoutSeconds);
  return outcome === "done"
    ? {
        ...base,
        lost: true,
        timed_out: true,
        text: `💥 BANG! ${player.display_name} lost the roulette and is timed out for ${duration}.`,
      }
    : {
        ...base,
        lost: true,
        timed_out: false,
        text: `💥 BANG! ${player.display_name} lost, but Twitch does not allow timing them out.`,
      };
}

async function randomRoulette(
  ctx: RouletteContext,
  account: Account,
  lists: RoleLists,
  options: RouletteOptions,
  duration: string,
): Promise<CommandReply> {
  if (lists.moderators === null) {
    throw new ApiError(
      403,
      "forbidden",
      "Random roulette needs your permission to list moderators, so that none is picked: press Allow under !roulette in cuebot's dashboard (Commands).",
    );
  }
  const pool = (await chattersOf(ctx, account)).filter(
    (c) => immunityOf(c.user_id, account, lists, options.protectSubscribers) === null,
  );
  const loser = pickOne(ctx.random, pool);
  if (!loser)
    return {
      mode: "random",
      user: null,
      timed_out: false,
      text: "Nobody in chat can be timed out right now.",
    };
  const outcome = await timeOut(ctx, account, loser.user_id, options.timeoutSeconds);
  return {
    mode: "random",
    user: loser.user_name,
    timed_out: outcome === "done",
    text:
      outcome === "done"
        ? `🔫 The roulette picked ${loser.user_name}: timed out for ${duration}.`
        : `🔫 The roulette picked ${loser.user_name}, but Twitch does not allow timing them out.`,
  };
}

export const rouletteCommand = defineCommand({
  name: "roulette",
  description: "One chamber in six is loaded: the loser is timed out",
  options: RouletteOptions,
  defaults: { timeoutSeconds: 60, chambers: 6, protectSubscribers: false },
  aliases: [],
  inputs: {
    user: "who pulls the trigger (falls back to Nightbot-User)",
    target: "`random` to let the gun pick someone from chat",
  },
  chat: [{ arg: "target", keyword: "random" }],
  route: {
    path: "/api/bot/roulette",
    summary: "Roulette: the loser is timed out (never the broadcaster, moderators or VIPs)",
  },
  run: (ctx, account, { args, caller }, options) => {
    const named = chatName(args.user);
    return roulette(
      ctx,
      account,
      {
        user: named ?? caller.user,
        random: args.target?.toLowerCase() === "random",
        callerLevel: named === undefined ? caller.userLevel : undefined,
      },
      options,
    );
  },
});
