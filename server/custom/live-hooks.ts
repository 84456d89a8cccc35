import type { Context } from "../runtime.ts";
import { customChatStage } from "./chat-stage.ts";
import { ChatTimers } from "./timers.ts";

/**
 * The channel's own commands in native chat, through the live layer's hooks (live/hooks.ts): a stage
 * of every chat line after the built-ins, each chatter's line counted for timers
 * (custom/chat-lines.ts), and the timers run while native chat holds its channels.
 */
export function bindCustomChat(ctx: Context): void {
  ctx.live.chatStages.add(customChatStage(ctx));
  ctx.live.hooks.chatLine.bind((accountId) => ctx.chatLines.noteChatLine(accountId));
  ctx.live.hooks.started.bind((start) => {
    const timers = new ChatTimers(ctx, start.channels, { secondMs: start.secondMs });
    timers.start();
    return {
      async close() {
        timers.stop();
      },
      forget: (accountId) => timers.drop(accountId),
    };
  });
}
