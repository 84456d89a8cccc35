import type { LiveFeature } from "../live/features.ts";
import { customChatStage } from "./chat-stage.ts";
import type { CustomContext } from "./context.ts";
import { ChatTimers } from "./timers.ts";

/**
 * The channel's own commands in native chat, while it runs (live/features.ts): a stage of every chat
 * line after the built-ins (`ctx.live.chatStages`), each chatter's line counted for timers on the
 * `chatLine` hook (custom/chat-lines.ts), and the timers of the channels chat holds.
 */
export const customCommandsBesideChat =
  (ctx: CustomContext): LiveFeature =>
  (start) => {
    const removeStage = ctx.live.chatStages.add(customChatStage(ctx));
    const unbindLines = ctx.live.hooks.chatLine.bind((accountId) => ctx.chatLines.noteChatLine(accountId));
    const timers = new ChatTimers(ctx, start.channels, { secondMs: start.secondMs });
    timers.start();
    return {
      async close() {
        timers.stop();
        unbindLines();
        removeStage();
      },
      forget: (accountId) => timers.drop(accountId),
    };
  };
