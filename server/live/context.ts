import type { CoreContext } from "../core/context.ts";
import type { TokenContext } from "../identity/provider-tokens.ts";
import type { HelixApi } from "../twitch/helix-api.ts";
import type { LiveHandle } from "./handle.ts";

/*
 * What the live layer reads, declared here rather than taken from the runtime's Context
 * (server/runtime.ts builds that one from live/, so naming it would tie the two together). The
 * runtime's Context holds every field; each class takes the part it reads.
 */

/** The reading users' tokens (live/speaker-tokens.ts): the stored grants as identity refreshes them. */
export type SpeakerTokenContext = TokenContext & Readonly<Pick<CoreContext, "secrets">>;

/**
 * The EventSub sessions (live/sessions.ts): the speakers' tokens, the EventSub URL (config), the
 * Helix client that creates and deletes subscriptions, and the live layer's hooks.
 */
export type LiveContext = SpeakerTokenContext &
  Readonly<Pick<CoreContext, "config">> & {
    readonly helixApi: HelixApi | null;
    readonly live: LiveHandle;
  };
