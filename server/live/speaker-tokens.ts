import type { Account } from "../../db/accounts.ts";
import { loadChatBot, markChatBotNeedsReauth, storeChatBot } from "../../db/chat.ts";
import { loadProviderTokens } from "../../db/oauth-tokens.ts";
import { IdentityProviderError } from "../identity/idp-client.ts";
import { ReauthRequiredError, refreshUserToken } from "../identity/provider-tokens.ts";
import { HelixError } from "../twitch/helix-client.ts";
import type { SpeakerTokenContext } from "./context.ts";
import type { TokenHolder } from "./feed.ts";

/** Refresh a token this long before it expires, so the subscribe window is never spent on it. */
const REFRESH_AHEAD_MS = 5 * 60_000;

/**
 * How long a token read from the store is used without reading it again. Each reply used to read and
 * decrypt it (a query and an AES-GCM open per line: ~10 % of chat's CPU at 1,000 commands a second,
 * issue 26); a token replaced meanwhile (a login, another process's refresh) still works until it
 * expires, and a 401 reads it afresh anyway.
 */
const HELD_MS = 60_000;

/** The speaker's grant is gone: the streamer must act (the message says how); nothing retries. */
export class AuthGone extends Error {}

/**
 * The access token of whoever reads and speaks for a channel (the streamer, or the linked bot
 * account), refreshed before it expires; a grant that is gone is an AuthGone.
 */
export class SpeakerTokens {
  /** "account:speaker" → the token last read, until `HELD_MS` after reading or its refresh is due. */
  readonly #held = new Map<string, { token: string; expiresAt: number; readAt: number }>();

  constructor(private readonly ctx: SpeakerTokenContext) {}

  /**
   * The speaker's access token, refreshed first when it expires soon, or when Twitch refused
   * `rejected` (unless the store already holds a newer one: a login or another path refreshed it).
   * `held`: the token read within the last minute will do (a chat reply). Without it the store is
   * read (subscribing, which needs the grant as it is now: a consent just given widens it).
   */
  async tokenFor(channel: TokenHolder, options: { rejected?: string; held?: boolean } = {}): Promise<string> {
    const { rejected } = options;
    const force = rejected !== undefined;
    const { ctx } = this;
    const account = await ctx.accounts.account(channel.accountId);
    if (!account || account.needsReauth)
      throw new AuthGone("Twitch ended cuebot's access to your account: log in again.");
    const key = `${channel.accountId}:${channel.speaker.userId}`;
    const now = ctx.clock.now();
    const held = this.#held.get(key);
    if (
      options.held &&
      !force &&
      held &&
      now - held.readAt < HELD_MS &&
      held.expiresAt - now > REFRESH_AHEAD_MS
    )
      return held.token;
    this.#held.delete(key);
    const read = await this.#read(channel, account, rejected);
    this.#held.set(key, { ...read, readAt: now });
    return read.token;
  }

  /** Forgets what is held for the account (its channel closed, or its grant changed). */
  forget(accountId: number): void {
    for (const key of this.#held.keys()) if (key.startsWith(`${accountId}:`)) this.#held.delete(key);
  }

  /** From the store, refreshed when due; a token just refreshed is held once the store has it (expiresAt 0). */
  async #read(
    channel: TokenHolder,
    account: Account,
    rejected: string | undefined,
  ): Promise<{ token: string; expiresAt: number }> {
    const force = rejected !== undefined;
    const { ctx } = this;
    if (channel.speaker.kind === "streamer") {
      const stored = await loadProviderTokens(ctx.db, ctx.secrets, account.id);
      if (!stored) throw new AuthGone("No Twitch token is stored for this account: log in again.");
      const fresh = stored.expiresAt - ctx.clock.now() > REFRESH_AHEAD_MS;
      if (fresh && (!force || stored.accessToken !== rejected))
        return { token: stored.accessToken, expiresAt: stored.expiresAt };
      try {
        return { token: await refreshUserToken(ctx, account, rejected), expiresAt: 0 };
      } catch (error) {
        if (error instanceof ReauthRequiredError)
          throw new AuthGone("Twitch ended cuebot's access to your account: log in again.");
        throw error;
      }
    }
    const bot = await loadChatBot(ctx.db, ctx.secrets, account.id);
    if (!bot || bot.needsReauth) throw new AuthGone("The bot account must be linked again.");
    const fresh = bot.expiresAt - ctx.clock.now() > REFRESH_AHEAD_MS;
    if (fresh && (!force || bot.accessToken !== rejected))
      return { token: bot.accessToken, expiresAt: bot.expiresAt };
    const idp = ctx.identityProvider;
    if (!idp) throw new AuthGone("Twitch login is not configured on this server.");
    try {
      const fresh = await idp.refresh(bot.refreshToken);
      await storeChatBot(
        ctx.db,
        ctx.secrets,
        account.id,
        {
          ...bot,
          accessToken: fresh.accessToken,
          refreshToken: fresh.refreshToken,
          scopes: fresh.scopes,
          expiresAt: ctx.clock.now() + fresh.expiresIn * 1000,
        },
        ctx.clock.now(),
      );
      return { token: fresh.accessToken, expiresAt: 0 };
    } catch (error) {
      if (error instanceof IdentityProviderError && error.kind === "rejected") {
        await markChatBotNeedsReauth(ctx.db, account.id, ctx.clock.now());
        throw new AuthGone(`Twitch ended cuebot's access to the bot account ${bot.login}: link it again.`);
      }
      throw error;
    }
  }

  /**
   * A Helix call with the speaker's token (`held`: as tokenFor says); a 401 reads it again, refreshing
   * it when the store has no newer one, and retries once.
   */
  async withToken<T>(
    channel: TokenHolder,
    call: (token: string) => Promise<T>,
    options: { held?: boolean } = {},
  ): Promise<T> {
    const token = await this.tokenFor(channel, options);
    try {
      return await call(token);
    } catch (error) {
      if (!(error instanceof HelixError) || error.status !== 401) throw error;
      return call(await this.tokenFor(channel, { rejected: token }));
    }
  }
}
