import { rmSync } from "node:fs";
import { join } from "node:path";
import type { DemoChat } from "./chat/demo-chat.ts";
import type { Config } from "./core/config.ts";
import { type GameSimulator, startGameSimulator } from "./sim/game/server.ts";
import { startTwitchSimulator, type TwitchSimulator } from "./sim/twitch/server.ts";
import { seedWorld } from "./sim/twitch/world.ts";

/**
 * `serve --demo`: the product with no accounts anywhere. Simulators of the identity provider, Helix
 * and the game provider start on loopback and cuebot's real clients are pointed at them. Demo data
 * lives in its own folder (`<data dir>/demo`), never mixes with real accounts, and starts fresh.
 */
export interface DemoEnvironment {
  /** The server's config pointed at the simulators and the demo's own data, on no shared store. */
  config: Config;
  twitch: TwitchSimulator;
  game: GameSimulator;
  /** The simulated chat, for the dashboard's demo chat panel. */
  chat: DemoChat;
  stop(): Promise<void>;
}

/** Starts the simulators; `config` is left as it is (the demo runs on the returned one). */
export function startDemo(config: Config): DemoEnvironment {
  // The seeded world is placed around start-up time, so the demo stream is "live for 2 hours".
  const twitch = startTwitchSimulator({ world: seedWorld(Date.now()) });
  // Matches are placed relative to each request, so the demo always has games "today".
  // An "Advanced" provider key (90 a minute): someone trying the game API without a key gets up to
  // the anonymous half, 45 provider calls a minute (an equal part of it when other addresses ask too).
  const game = startGameSimulator({ anchor: "request", rateLimitPerMinute: 90 });
  const dataDir = join(config.dataDir, "demo");
  // The simulators start empty, so tokens and sessions from an earlier demo run cannot work any more:
  // the demo starts from fresh data every time (deterministic, and nobody is told to log in again).
  rmSync(dataDir, { recursive: true, force: true });
  const demoConfig: Config = {
    ...config,
    dataDir,
    // The demo's simulated world must not meet the real one's data, limits, overlays or chat lease.
    databaseUrl: null,
    redisUrl: null,
    twitch: {
      ...config.twitch,
      authUrl: twitch.authUrl,
      apiUrl: twitch.helixUrl,
      eventsubUrl: twitch.eventsubUrl,
      clientId: twitch.client.id,
      clientSecret: twitch.client.secret,
    },
    game: { ...config.game, apiUrl: game.url, apiKey: game.apiKey },
    demo: true,
  };
  return {
    config: demoConfig,
    twitch,
    game,
    chat: {
      viewers: ["viewer_anna", "modbob", "subdave", "lurker_eve"],
      say: (channel, user, text) => twitch.chat.say({ channel, user, text }),
      lines: (channel) =>
        twitch.chat.lines(channel).map((l) => ({
          id: l.messageId,
          at: new Date(l.at).toISOString(),
          user: l.userName,
          text: l.text,
          fromCuebot: l.source === "sent",
          replyTo: l.replyParentMessageId,
        })),
    },
    async stop() {
      await Promise.all([twitch.stop(), game.stop()]);
    },
  };
}
