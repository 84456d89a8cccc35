import type { CoreContext } from "../core/context.ts";
import type { LiveHandle } from "../live/handle.ts";
import type { ActionRunContext, ActionsHandle } from "./handle.ts";

/*
 * What actions beside native chat read, declared here rather than taken from the runtime's Context
 * (server/runtime.ts builds that one from actions/, so naming it would tie the two together).
 */

/**
 * Actions beside native chat (actions/live-feature.ts): the runner's context, the accounts (the
 * streamer's name for a stream trigger), the live layer's hooks and stages, the change feed, the
 * channel's regulars from memory (custom/cache.ts fills it) and the context's actions.
 */
export type ActionsContext = ActionRunContext &
  Readonly<Pick<CoreContext, "accounts" | "externalChanges">> & {
    readonly live: LiveHandle;
    readonly chatBot: { regulars(accountId: number): ReadonlySet<string> | Promise<ReadonlySet<string>> };
    readonly actions: ActionsHandle;
  };
