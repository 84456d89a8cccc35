import type { Account } from "../../db/accounts.ts";
import type { AlertType } from "../alerts/model.ts";
import { ApiError, notFound } from "../core/errors.ts";
import type { Context } from "../runtime.ts";

/**
 * The demo's alert buttons (`cuebot serve --demo`, issue 25): the simulated Twitch (server/demo.ts
 * points cuebot's Twitch addresses at it) is asked through its control route `POST /_sim/eventsub/emit`
 * to send a real EventSub notification of the type to the demo streamer's subscriptions, so the event
 * takes the whole path a real one does. Outside demo mode there is no such simulator: 404.
 */

const EMIT_PATH = "/_sim/eventsub/emit";
const EMIT_TIMEOUT_MS = 5_000;
/** The sizes the demo's buttons name ("a gift of 5", "a raid of 42"); cheers keep the simulator's 100 bits. */
const DEMO_OPTIONS: Partial<Record<AlertType, Record<string, number>>> = {
  gift: { total: 5 },
  raid: { viewers: 42 },
};

/** Where the simulator takes its controls: the host that stands in for Twitch's login service. */
function emitUrl(ctx: Context): string {
  return `${new URL(ctx.config.twitch.authUrl).origin}${EMIT_PATH}`;
}

function simulatorTrouble(): ApiError {
  return new ApiError(502, "upstream_error", "The simulated Twitch did not send the event; try again.");
}

/** Has the demo's simulated Twitch fire one event of `type` for `account`'s channel. */
export async function simulateAlertEvent(ctx: Context, account: Account, type: AlertType): Promise<void> {
  if (!ctx.config.demo) {
    throw notFound("Simulated alerts exist in demo mode only (cuebot serve --demo).");
  }
  let response: Response;
  try {
    response = await fetch(emitUrl(ctx), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ type, broadcaster_user_id: account.twitchUserId, ...DEMO_OPTIONS[type] }),
      signal: AbortSignal.timeout(EMIT_TIMEOUT_MS),
    });
  } catch (error) {
    ctx.log.warn("the demo's simulated Twitch did not answer an alert emit", { error });
    throw simulatorTrouble();
  }
  await response.body?.cancel();
  if (!response.ok) {
    ctx.log.warn("the demo's simulated Twitch refused an alert emit", { status: response.status, type });
    throw simulatorTrouble();
  }
}
