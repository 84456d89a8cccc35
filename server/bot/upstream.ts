import type { Account } from "../../db/accounts.ts";
import { ApiError } from "../core/errors.ts";
import { ReauthRequiredError, withUserToken } from "../identity/provider-tokens.ts";
import type { HelixApi } from "../twitch/helix-api.ts";
import { HelixError } from "../twitch/helix-client.ts";
import type { ChannelOwnerContext } from "./context.ts";

/** Twitch is down, slow or rate-limiting us: say so plainly, never a 500. */
export function twitchUnavailable(): ApiError {
  return new ApiError(
    502,
    "upstream_error",
    "Twitch is not answering right now; please try again in a moment.",
  );
}

export function reauthRequired(ctx: Pick<ChannelOwnerContext, "publicUrl">, account: Account): ApiError {
  return new ApiError(
    503,
    "reauth_required",
    `${account.displayName} needs to log in to cuebot again at ${ctx.publicUrl} (the Twitch connection ended).`,
  );
}

/** Whether a Helix failure is the platform's trouble (unreachable, timed out, rate-limited, 5xx). */
export function isTwitchTrouble(error: unknown): boolean {
  return (
    error instanceof HelixError && (error.status === null || error.status === 429 || error.status >= 500)
  );
}

/**
 * Runs Helix calls as the channel owner, turning the failures every command shares into contract
 * errors: no provider configured, the streamer's grant ended, Twitch unavailable. Command-specific
 * statuses (404 offline, 403, 429 cooldowns) are left for the command to word.
 */
export async function asChannelOwner<T>(
  ctx: ChannelOwnerContext,
  account: Account,
  call: (api: HelixApi, token: string) => Promise<T>,
  /** Helix statuses the command words itself (e.g. a shoutout's 429 cooldown): rethrown as they are. */
  handled: readonly number[] = [],
): Promise<T> {
  const api = ctx.helixApi;
  if (!api) {
    throw new ApiError(503, "login_not_configured", "Twitch is not configured on this cuebot server.");
  }
  try {
    return await withUserToken(ctx, account, (token) => call(api, token));
  } catch (error) {
    if (error instanceof ReauthRequiredError) throw reauthRequired(ctx, account);
    if (error instanceof HelixError && error.status !== null && handled.includes(error.status)) throw error;
    if (isTwitchTrouble(error)) throw twitchUnavailable();
    if (error instanceof HelixError && error.status !== null && error.status >= 400 && error.status !== 401) {
      // Anything else Twitch refused and the command does not word itself: say so, never a bare 4xx.
      throw new ApiError(502, "upstream_error", `Twitch refused the request: ${error.message}`);
    }
    if (error instanceof HelixError && error.status === 401) {
      // Still 401 after a refresh: the grant lacks a scope this command needs.
      throw new ApiError(
        502,
        "upstream_error",
        `Twitch refused the request (${error.message}); ${account.displayName} may need to log in to cuebot again to grant it.`,
      );
    }
    throw error;
  }
}
