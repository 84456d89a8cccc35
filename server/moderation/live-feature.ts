import type { LiveFeature } from "../live/features.ts";
import type { ModerationContext } from "./context.ts";
import { startModeration } from "./live.ts";

/**
 * Chat moderation runs beside native chat (with Redis, on the chat lease holder): its stage judges
 * the lines chat reads, on the same sessions and channels (live/features.ts).
 */
export const moderationBesideChat =
  (ctx: ModerationContext): LiveFeature =>
  (start) => {
    const live = startModeration(ctx, start);
    return {
      async close() {
        ctx.moderation.release(live);
        await live.close();
      },
    };
  };
