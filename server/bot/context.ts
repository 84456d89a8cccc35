import type { ReadCache } from "../cache/read-cache.ts";
import type { RoleCaches } from "../cache/role-cache.ts";
import type { CoreContext } from "../core/context.ts";
import type { GameContext } from "../game/records.ts";
import type { TokenContext } from "../identity/provider-tokens.ts";
import type { HelixApi } from "../twitch/helix-api.ts";
import type { Random } from "./chance.ts";
import type { Cooldowns } from "./cooldowns.ts";

/*
 * What the built-in commands read, declared here rather than taken from the runtime's Context
 * (server/runtime.ts builds that one from bot/, so naming it would tie the two together). The
 * runtime's Context holds every field; each function takes the part it reads.
 */

/**
 * Calling Twitch as the channel owner (bot/upstream.ts): the owner's stored token as the identity
 * feature reads and refreshes it, the Helix client, and the public URL a "log in again" answer names.
 */
export type ChannelOwnerContext = TokenContext & {
  readonly helixApi: HelixApi | null;
  readonly publicUrl: string;
};

/** A Twitch lookup through the role-aware caches of its answers (bot/lookups.ts). */
export type TwitchLookupContext = ChannelOwnerContext & { readonly caches: RoleCaches };

/**
 * A command's run (bot/definition.ts's `run`, bot/runner.ts): Twitch lookups, the game service, the
 * stored settings and their cache, cooldowns, chance, and the analytics events it records.
 */
export type CommandContext = TwitchLookupContext &
  GameContext &
  Readonly<Pick<CoreContext, "db" | "clock" | "log" | "events">> & {
    /** Command settings read on every call, from memory (cleared by every write). */
    readonly settingsCache: ReadCache<object>;
    readonly cooldowns: Cooldowns;
    /** The source of chance for dice, coins, the magic 8-ball and roulette (seeded in tests). */
    readonly random: Random;
  };
