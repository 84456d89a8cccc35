import type { CommandContext } from "../bot/context.ts";
import type { CoreContext } from "../core/context.ts";
import type { RateLimits } from "../limits/rate-limits.ts";
import type { LiveContext } from "../live/context.ts";
import type { ChatHandle } from "./status.ts";

/*
 * What native chat reads, declared here rather than taken from the runtime's Context
 * (server/runtime.ts builds that one from chat/, so naming it would tie the two together). The
 * runtime's Context holds every field; each function takes the part it reads.
 */

/**
 * Native chat under `serve` (chat/manager.ts, chat/dispatch.ts, chat/leader.ts): the live layer's
 * sessions (live/context.ts), what a built-in command reads (bot/context.ts), the chatters' budgets,
 * the changes other processes announce, and the chat status the dashboard reads (`chat`).
 */
export type ChatContext = CommandContext &
  LiveContext &
  Readonly<Pick<CoreContext, "accounts" | "externalChanges" | "onClose">> & {
    readonly limits: Pick<RateLimits, "chatters">;
    readonly chat: ChatHandle;
  };
