import type { LiveFeature } from "../live/features.ts";
import type { ActionsContext } from "./context.ts";
import { ActionTriggers } from "./live.ts";

/**
 * Actions run beside native chat (with Redis, on the chat lease holder, which holds the accounts' OBS
 * connections): their triggers bound to the live layer's stage and hooks, chat steps said in the
 * channels chat holds (live/features.ts).
 */
export const actionsBesideChat =
  (ctx: ActionsContext): LiveFeature =>
  (start) => {
    const triggers = new ActionTriggers(ctx, start.channels);
    triggers.start();
    return {
      async close() {
        triggers.close();
      },
    };
  };
