import { LRUCache } from "lru-cache";
import type { Account } from "../../db/accounts.ts";
import { type ChatBotAccount, deleteChatBot, loadChatBot } from "../../db/chat.ts";
import { type TokenContext, withUserToken } from "../identity/provider-tokens.ts";
import type { ChatContext } from "./context.ts";

/**
 * The optional separate account that reads and speaks in a channel's chat (reference/twitch-chat.md
 * §0 option B). Linked with its own login; its standing in the channel decides how fast it may speak:
 * a moderator or VIP sends 100 lines per 30 s, anyone else 20, one per second, with duplicate and
 * room-mode drops.
 */

export interface BotStanding {
  login: string;
  displayName: string;
  /** Moderator in the channel; null when it could not be checked. */
  moderator: boolean | null;
  /** VIP in the channel; null when it could not be checked. */
  vip: boolean | null;
  /** What this means for the streamer, in words. */
  note: string;
}

const LIMITED =
  "Without moderator or VIP status Twitch holds it to 20 messages per 30 seconds and one per second, and drops repeated lines and lines that break room modes (slow, followers-, subscribers- or emote-only). Make it a moderator with /mod in your chat.";

/** Answers are kept a minute: the dashboard asks every few seconds while the Chat view is open. */
const cache = new WeakMap<object, LRUCache<number, BotStanding>>();

async function check<T>(run: () => Promise<T>): Promise<T | null> {
  try {
    return await run();
  } catch {
    return null;
  }
}

/** The linked bot and whether it is a moderator or VIP in the streamer's channel. */
export async function botStanding(
  ctx: TokenContext & Pick<ChatContext, "helixApi">,
  account: Account,
  bot: ChatBotAccount,
): Promise<BotStanding> {
  let byAccount = cache.get(ctx);
  if (!byAccount) {
    byAccount = new LRUCache({ max: 10_000, ttl: 60_000 });
    cache.set(ctx, byAccount);
  }
  const cached = byAccount.get(account.id);
  if (cached && cached.login === bot.login) return cached;
  const helix = ctx.helixApi;
  const moderator =
    helix && bot.scopes.includes("user:read:moderated_channels")
      ? await check(async () =>
          (await helix.moderatedChannelIds(bot.accessToken, bot.twitchUserId)).has(account.twitchUserId),
        )
      : null;
  const vip = helix
    ? await check(() =>
        withUserToken(ctx, account, (token) => helix.vipIds(token, account.twitchUserId)),
      ).then((ids) => (ids ? ids.has(bot.twitchUserId) : null))
    : null;
  const note =
    moderator === true
      ? "It is a moderator in your channel: it may send 100 messages per 30 seconds, and room modes do not apply to it."
      : vip === true
        ? "It is a VIP in your channel: it may send 100 messages per 30 seconds."
        : moderator === null
          ? `cuebot could not check whether it is a moderator (link it again to allow that). ${LIMITED}`
          : `It is not a moderator in your channel. ${LIMITED}`;
  const standing = { login: bot.login, displayName: bot.displayName, moderator, vip, note };
  byAccount.set(account.id, standing);
  return standing;
}

/** Unlinks the bot: its grant is revoked at Twitch (best effort) and its tokens deleted. */
export async function unlinkBot(
  ctx: Pick<ChatContext, "db" | "secrets" | "chat" | "identityProvider" | "log">,
  account: Account,
): Promise<boolean> {
  const bot = await loadChatBot(ctx.db, ctx.secrets, account.id);
  if (!bot) return false;
  await deleteChatBot(ctx.db, account.id);
  cache.get(ctx)?.delete(account.id);
  await ctx.chat.sync(account.id);
  try {
    await ctx.identityProvider?.revoke(bot.accessToken);
  } catch (error) {
    ctx.log.warn("could not revoke the bot account's token at Twitch", { error });
  }
  return true;
}
