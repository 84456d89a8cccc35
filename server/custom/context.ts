import type { CommandContext } from "../bot/context.ts";
import type { CoreContext } from "../core/context.ts";
import type { RateLimits } from "../limits/rate-limits.ts";
import type { LiveHandle } from "../live/handle.ts";
import type { ChatBotCache } from "./cache.ts";
import type { ChatLines } from "./chat-lines.ts";

/*
 * What the channel's own commands, quotes, regulars and timers read, declared here rather than taken
 * from the runtime's Context (server/runtime.ts builds that one from custom/, so naming it would tie the
 * two together). The runtime's Context holds every field; each function takes the part it reads.
 */

/**
 * A custom command's run and the timers (custom/answers.ts, custom/timers.ts): what a built-in
 * command reads (bot/context.ts: Twitch lookups, the game service, cooldowns, chance), the channel's
 * commands and regulars from memory, the chat lines seen, the chatters' budgets and the live layer.
 */
export type CustomContext = CommandContext &
  Readonly<Pick<CoreContext, "accounts" | "externalChanges">> & {
    readonly chatBot: ChatBotCache;
    readonly chatLines: ChatLines;
    readonly limits: Pick<RateLimits, "chatters">;
    readonly live: LiveHandle;
  };
