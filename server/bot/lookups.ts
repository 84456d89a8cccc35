import type { Account } from "../../db/accounts.ts";
import { echoable, LOGIN_SHAPE } from "../core/chat-echo.ts";
import { ApiError, badRequest } from "../core/errors.ts";
import { andThen, type MaybePromise } from "../core/maybe-promise.ts";
import type { HelixChannel, HelixChatter } from "../twitch/helix-api.ts";
import type { HelixUser } from "../twitch/helix-client.ts";
import type { TwitchLookupContext } from "./context.ts";
import { asChannelOwner } from "./upstream.ts";

/** The key decides the channel: a bot may not ask about another streamer's channel with it. */
export function requireOwnChannel(account: Account, channel: string | undefined): void {
  if (channel === undefined) {
    throw badRequest(
      'The query parameter "channel" is missing (use your bot\'s channel variable, e.g. $(channel)).',
    );
  }
  if (channel.toLowerCase() !== account.login) {
    const shown = echoable(channel);
    throw new ApiError(
      403,
      "forbidden",
      `This API key belongs to ${account.displayName}; it only answers for that channel${shown ? `, not ${shown}` : ""}.`,
    );
  }
}

/** Names the user only when the name is login-shaped: a reply never repeats a chatter's sentence. */
export function userNotFound(name: string): ApiError {
  const shown = echoable(name);
  return new ApiError(404, "not_found", shown ? `User not found: ${shown}` : "That user was not found.");
}

/** Lowercase login if the text can be one; otherwise null (the name cannot exist on Twitch). */
export function asLogin(name: string): string | null {
  return LOGIN_SHAPE.test(name) ? name.toLowerCase() : null;
}

/** A platform user by login, cached for the channel owner's command TTL (misses included). */
export function findUser(ctx: TwitchLookupContext, account: Account, name: string): MaybePromise<HelixUser> {
  const login = asLogin(name);
  if (!login) throw userNotFound(name);
  const cache = ctx.caches.command<HelixUser | null>("users");
  const found = cache.getOrLoad(login, account.role, () =>
    asChannelOwner(
      ctx,
      account,
      async (api, token) => (await api.users(token, { login: [login] }))[0] ?? null,
    ),
  );
  return andThen(found, (user) => {
    if (!user) throw userNotFound(name);
    return user;
  });
}

/** A channel's current (or last) category and title. */
export async function channelInfo(
  ctx: TwitchLookupContext,
  account: Account,
  userId: string,
): Promise<HelixChannel | null> {
  const cache = ctx.caches.command<HelixChannel | null>("channels");
  return cache.getOrLoad(userId, account.role, () =>
    asChannelOwner(ctx, account, async (api, token) => (await api.channels(token, [userId]))[0] ?? null),
  );
}

/** At most this many chatters are read for picks (5 pages of 1000). */
const MAX_CHATTER_PAGES = 5;

/** Everyone in the owner's chat right now, cached per §8.3 ("chatters / stalker / roulette"). */
export async function chattersOf(ctx: TwitchLookupContext, account: Account): Promise<HelixChatter[]> {
  const cache = ctx.caches.panel<HelixChatter[]>("chatters");
  return cache.getOrLoad(String(account.id), account.role, () =>
    asChannelOwner(ctx, account, async (api, token) => {
      const all: HelixChatter[] = [];
      let after: string | undefined;
      for (let page = 0; page < MAX_CHATTER_PAGES; page++) {
        const body = await api.chatters(token, {
          broadcasterId: account.twitchUserId,
          moderatorId: account.twitchUserId,
          first: 1000,
          after,
        });
        // Twitch has been seen to list a chatter with every field empty; skip those.
        all.push(...body.data.filter((c) => c.user_id && c.user_login));
        after = body.pagination?.cursor;
        if (!after) break;
      }
      return all;
    }),
  );
}
