import type { ChatState } from "../../db/schema-enums.ts";
import type { SpokenChannel } from "./hooks.ts";
import type { LiveSessions } from "./sessions.ts";

/** What starts on the instance that reads Twitch (with Redis, the chat lease holder). */
export interface LiveStart {
  sessions: LiveSessions;
  /** The channels native chat holds now, by account. */
  channels: ReadonlyMap<number, SpokenChannel>;
  /** One protocol "second" in ms (tests shorten it). */
  secondMs?: number;
}

export interface LiveStop {
  /** Another instance takes over: the stored states stay as they are. */
  handOver?: boolean;
  end?: { state: ChatState; reason: string };
}

/** A feature's part of the running live layer, stopped with it. */
export interface LiveService {
  close(stop: LiveStop): Promise<void>;
  /** Native chat let the account's channel go. */
  forget?(accountId: number): void;
}

/**
 * A feature that runs beside native chat on the live layer (alerts, the channel's own commands and
 * timers): started when chat starts on this instance (with Redis, the chat lease holder), on its
 * sessions and channels, and closed with it. The runtime names them, each bound to the context it
 * reads (server/live-runtime.ts), so neither chat nor the live layer imports them.
 */
export type LiveFeature = (start: LiveStart) => LiveService;
