import type { CoreContext } from "../core/context.ts";
import type { RateLimits } from "../limits/rate-limits.ts";
import type { SpeakerTokenContext } from "../live/context.ts";
import type { LiveHandle } from "../live/handle.ts";
import type { HelixApi } from "../twitch/helix-api.ts";
import type { ConnectionState } from "../vocabulary.ts";
import type { ModerationBook } from "./book.ts";

/*
 * What chat moderation reads, declared here rather than taken from the runtime's Context
 * (server/runtime.ts builds that one from moderation/, so naming it would tie the two together).
 */

/** Native chat as moderation sees it: its state, and bringing it in line after the switch changed. */
export interface ChatAsSeen {
  status(accountId: number): Promise<{ state: ConnectionState; since: number | null; reason: string | null }>;
  sync(accountId: number): Promise<void>;
}

/** The live moderation runtime, where this instance runs one (moderation/live-feature.ts). */
export interface ModerationRuntime {
  /** The account's settings or switch changed: read them again, and end the shield if it was ended. */
  changed(accountId: number): void;
}

/** The context's moderation: what the panel tells the live runtime, wherever that runs. */
export class ModerationHandle {
  #live: ModerationRuntime | null = null;

  useLive(live: ModerationRuntime): void {
    this.#live = live;
  }

  release(live: ModerationRuntime): void {
    if (this.#live === live) this.#live = null;
  }

  /** Another instance learns through the change feed (its externalChanges); this one at once. */
  changed(accountId: number): void {
    this.#live?.changed(accountId);
  }
}

/** What moderation's status reads (moderation/status.ts). */
export type ModerationStatusContext = Readonly<Pick<CoreContext, "db" | "secrets" | "accounts">> & {
  readonly helixApi: HelixApi | null;
  readonly chat: ChatAsSeen;
};

/**
 * Moderation beside native chat, and the dashboard's routes: the store, the acting account's tokens
 * (live/context.ts), the live layer's hooks and stages, chat's budgets, what it remembers of chatters
 * (`moderationBook`, in Redis where configured) and the handle to the live runtime.
 */
export type ModerationContext = ModerationStatusContext &
  SpeakerTokenContext &
  Readonly<Pick<CoreContext, "clock" | "log" | "externalChanges">> & {
    readonly live: LiveHandle;
    readonly limits: Pick<RateLimits, "chatters">;
    readonly moderationBook: ModerationBook;
    readonly moderation: ModerationHandle;
  };
