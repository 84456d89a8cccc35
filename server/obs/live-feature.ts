import type { LiveFeature } from "../live/features.ts";
import type { ObsContext } from "./context.ts";
import { startObs } from "./live.ts";

/**
 * The OBS connections run beside native chat (with Redis, on the chat lease holder, so one instance
 * holds an account's connection); they use none of chat's sessions (live/features.ts).
 */
export const obsBesideChat =
  (ctx: ObsContext): LiveFeature =>
  () => {
    const live = startObs(ctx);
    return {
      async close() {
        ctx.obs.release(live);
        await live.close();
      },
    };
  };
