import type { Account } from "../../db/accounts.ts";
import { loadChatBot } from "../../db/chat.ts";
import type { Speaker } from "../live/feed.ts";
import { SpeakerTokens } from "../live/speaker-tokens.ts";
import type { HelixApi } from "../twitch/helix-api.ts";
import type { ModerationContext } from "./context.ts";

/** Who acts for the channel: the linked bot account, or the streamer. */
export async function actingSpeaker(
  ctx: Pick<ModerationContext, "db" | "secrets">,
  account: Account,
): Promise<Speaker> {
  const bot = await loadChatBot(ctx.db, ctx.secrets, account.id);
  return bot ? { kind: "bot", userId: bot.twitchUserId } : { kind: "streamer", userId: account.twitchUserId };
}

/**
 * A Helix call as the account cuebot speaks as, with its id as `moderator_id`, its token refreshed
 * on a 401 (live/speaker-tokens.ts), wherever chat runs: the dashboard's routes and the shield's end
 * need no open channel. Twitch's refusal is thrown as its HelixError.
 */
export async function asActing(
  ctx: ModerationContext,
  account: Account,
  call: (helix: HelixApi, token: string, moderatorId: string) => Promise<void>,
): Promise<void> {
  const helix = ctx.helixApi;
  if (!helix) throw new Error("Twitch is not configured on this server.");
  const speaker = await actingSpeaker(ctx, account);
  await new SpeakerTokens(ctx).withToken({ accountId: account.id, speaker }, (token) =>
    call(helix, token, speaker.userId),
  );
}

/** Followers-only chat off, as the acting account (the shield's end). */
export function liftFollowersOnly(ctx: ModerationContext, account: Account): Promise<void> {
  return asActing(ctx, account, (helix, token, moderatorId) =>
    helix.setFollowersOnly(token, { broadcasterId: account.twitchUserId, moderatorId, on: false }),
  );
}
