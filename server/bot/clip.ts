import type { Account } from "../../db/accounts.ts";
import { ApiError } from "../core/errors.ts";
import { HelixError } from "../twitch/helix-client.ts";
import type { ChannelOwnerContext } from "./context.ts";
import { type CommandReply, defineCommand, NO_OPTIONS } from "./definition.ts";
import { asChannelOwner } from "./upstream.ts";

/**
 * Create Clip answers 202 with the id at once; the clip page works within seconds, so the link is
 * returned straight away (chat bots give up after ~5 s).
 */
export async function createClip(ctx: ChannelOwnerContext, account: Account): Promise<CommandReply> {
  try {
    const clip = await asChannelOwner(
      ctx,
      account,
      (api, token) => api.createClip(token, account.twitchUserId),
      [400, 403, 404],
    );
    const url = `https://clips.twitch.tv/${clip.id}`;
    return { id: clip.id, url, edit_url: clip.edit_url, text: `Clip created: ${url}` };
  } catch (error) {
    if (error instanceof HelixError && error.status === 404) {
      throw new ApiError(409, "channel_offline", `${account.displayName} is offline`);
    }
    if (error instanceof HelixError && error.status === 403) {
      throw new ApiError(
        403,
        "forbidden",
        `Twitch does not allow clipping ${account.displayName} right now (clips may be turned off or restricted).`,
      );
    }
    if (error instanceof HelixError && error.status === 400) {
      throw new ApiError(400, "bad_request", `Twitch refused the clip: ${error.message}`);
    }
    throw error;
  }
}

export const clipCommand = defineCommand({
  name: "clip",
  description: "Clips the last seconds of the live stream",
  options: NO_OPTIONS,
  defaults: {},
  aliases: [],
  inputs: {},
  route: { path: "/api/bot/clip", summary: "Clip the live stream; answers the clip link" },
  run: (ctx, account) => createClip(ctx, account),
});
