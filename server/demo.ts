import { rmSync } from "node:fs";
import type { DemoChat } from "./chat/demo-chat.ts";
import type { Config } from "./core/config.ts";
import { demoDataDir } from "./core/data-dir.ts";
import type { DemoObs, DemoProgram } from "./obs/demo-program.ts";
import { type GameSimulator, startGameSimulator } from "./sim/game/server.ts";
import { DEMO_OBS_PASSWORD, type ObsSimulator, startObsSimulator } from "./sim/obs/server.ts";
import type { ObsState } from "./sim/obs/state.ts";
import { startTwitchSimulator, type TwitchSimulator } from "./sim/twitch/server.ts";
import { DEMO_STREAMER_LOGIN, seedWorld } from "./sim/twitch/world.ts";
import type { CommandRefusal } from "./vocabulary.ts";

/**
 * `serve --demo`: the product with no accounts anywhere. Simulators of the identity provider, Helix,
 * the game provider and OBS Studio start on loopback and cuebot's real clients are pointed at them. Demo data
 * lives in its own folder (`<data dir>/demo`), never mixes with real accounts, and starts fresh.
 */
export interface DemoEnvironment {
  /** The server's config pointed at the simulators and the demo's own data, on no shared store. */
  config: Config;
  twitch: TwitchSimulator;
  game: GameSimulator;
  /** The simulated chat, for the dashboard's demo chat panel. */
  chat: DemoChat;
  /** The simulated OBS the demo account connects to, for its settings and the dashboard's program view. */
  obs: DemoObs;
  stop(): Promise<void>;
}

/**
 * The demo chat's nuisances (issue 35), so a visitor sees the moderation filters act: a spam bot that
 * follows nobody posts links the way spammers write them, and a viewer shouts in capitals. In order,
 * one after another, a gap of `NUISANCE_GAPS_MS` between them (deterministic, as all demo data).
 */
export const DEMO_NUISANCES: readonly { user: string; text: string }[] = [
  { user: "free_viewers_bot", text: "Want more viewers? visit bigfollows . com" },
  { user: "viewer13", text: "WHY IS NOBODY TALKING ABOUT THIS PLAY" },
  { user: "free_viewers_bot", text: "Cheap followers and viewers at best-viewers(dot)net" },
  { user: "viewer13", text: "LETS GOOOO THAT WAS INSANE CHAT" },
];

/** Between two nuisances, in turn: 40–70 s. */
export const NUISANCE_GAPS_MS: readonly number[] = [40_000, 55_000, 70_000, 47_000, 62_000];

/**
 * Posts the nuisances in the demo channel's chat, one per gap, until stopped; lines Twitch's room
 * refuses (the spam bot while followers-only is on, a chatter in a timeout) are simply not posted.
 * The timer holds no process open.
 */
export function startNuisances(
  say: (user: string, text: string) => void,
  gapsMs: readonly number[] = NUISANCE_GAPS_MS,
): () => void {
  let turn = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const next = () => {
    timer = setTimeout(
      () => {
        const nuisance = DEMO_NUISANCES[turn % DEMO_NUISANCES.length]!;
        say(nuisance.user, nuisance.text);
        turn++;
        next();
      },
      gapsMs[turn % gapsMs.length],
    );
    timer.unref?.();
  };
  next();
  return () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
}

/** Lines whose refusal the demo chat remembers (it shows the newest 100 lines). */
const DEMO_NO_REPLIES_KEPT = 200;

/** The program scene of the simulated OBS and its sources, top first, as OBS's window shows them. */
function programOf(state: ObsState): DemoProgram {
  const scene = state.scene(state.programScene);
  const sources = [...(scene?.items ?? [])].reverse().map((item) => {
    const input = state.input(item.source);
    const text = input?.kind.startsWith("text_") ? String(input.settings.text ?? "") : null;
    return { name: item.source, visible: item.enabled, text };
  });
  return { scene: state.programScene, sources };
}

/** The demo's OBS (a password, as OBS 28+ sets one), on the "Live" scene: the demo stream is live. */
function startDemoObs(): { sim: ObsSimulator; obs: DemoObs } {
  const sim = startObsSimulator({ password: DEMO_OBS_PASSWORD });
  sim.state.setProgramScene(sim.state.scene("Live")!);
  return { sim, obs: { url: sim.url, password: DEMO_OBS_PASSWORD, program: () => programOf(sim.state) } };
}

/** Starts the simulators; `config` is left as it is (the demo runs on the returned one). */
export function startDemo(config: Config): DemoEnvironment {
  // The seeded world is placed around start-up time, so the demo stream is "live for 2 hours".
  const twitch = startTwitchSimulator({ world: seedWorld(Date.now()) });
  // Matches are placed relative to each request, so the demo always has games "today".
  // An "Advanced" provider key (90 a minute): someone trying the game API without a key gets up to
  // the anonymous half, 45 provider calls a minute (an equal part of it when other addresses ask too).
  const game = startGameSimulator({ anchor: "request", rateLimitPerMinute: 90 });
  const obs = startDemoObs();
  const dataDir = demoDataDir(config.dataDir);
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
  const stopNuisances = startNuisances((user, text) => {
    twitch.chat.trySay({ channel: DEMO_STREAMER_LOGIN, user, text });
  });
  // Why a line's command got no reply, for the newest lines (the panel shows the last 100).
  const noReplies = new Map<string, CommandRefusal>();
  return {
    config: demoConfig,
    twitch,
    game,
    obs: obs.obs,
    chat: {
      viewers: ["viewer_anna", "modbob", "subdave", "lurker_eve"],
      say(channel, user, text) {
        const said = twitch.chat.trySay({ channel, user, text });
        return said.refused
          ? { id: null, refused: said.refused.message }
          : { id: said.messageId, refused: null };
      },
      lines: (channel) =>
        twitch.chat.lines(channel).map((l) => ({
          id: l.messageId,
          at: new Date(l.at).toISOString(),
          user: l.userName,
          text: l.text,
          fromCuebot: l.source === "sent",
          replyTo: l.replyParentMessageId,
          deleted: l.deleted,
          noReply: noReplies.get(l.messageId) ?? null,
        })),
      refused(messageId, reason) {
        noReplies.set(messageId, reason);
        for (const oldest of noReplies.keys()) {
          if (noReplies.size <= DEMO_NO_REPLIES_KEPT) break;
          noReplies.delete(oldest);
        }
      },
    },
    async stop() {
      stopNuisances();
      await Promise.all([twitch.stop(), game.stop(), obs.sim.stop()]);
    },
  };
}
