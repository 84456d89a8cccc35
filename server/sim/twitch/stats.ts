/**
 * What the simulator counts for tests that must show a limit was never hit (a flood test asserts
 * `tooMany` stayed empty and no `msg_ratelimit` drop happened).
 */
export interface TwitchSimStats {
  /** Helix answers with status 429, by route key ("POST /moderation/bans"), injected ones included. */
  tooMany: Map<string, number>;
  /** Send Chat Message answers with `is_sent: false`, by drop reason code ("msg_ratelimit"). */
  chatDrops: Map<string, number>;
}

export const newTwitchSimStats = (): TwitchSimStats => ({ tooMany: new Map(), chatDrops: new Map() });

/** Adds one to a counter. */
export const count = (counter: Map<string, number>, key: string) =>
  counter.set(key, (counter.get(key) ?? 0) + 1);
