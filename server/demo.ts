import { join } from "node:path";
import type { Config } from "./config.ts";
import { startTwitchSimulator, type TwitchSimulator } from "./twitch/sim.ts";

/**
 * `serve --demo`: the product with no accounts anywhere. Simulators of the identity provider and
 * Helix start on loopback and cuebot's real clients are pointed at them. Demo data lives in its own
 * folder (`<data dir>/demo`) so it never mixes with real accounts.
 */
export interface DemoEnvironment {
  twitch: TwitchSimulator;
  stop(): Promise<void>;
}

export function startDemo(config: Config): DemoEnvironment {
  const twitch = startTwitchSimulator();
  config.dataDir = join(config.dataDir, "demo");
  config.twitch.authUrl = twitch.authUrl;
  config.twitch.apiUrl = twitch.helixUrl;
  config.twitch.clientId = twitch.client.id;
  config.twitch.clientSecret = twitch.client.secret;
  config.demo = true;
  return {
    twitch,
    async stop() {
      await twitch.stop();
    },
  };
}
