/**
 * `serve --demo`: the demo channel's chat bot starts with a few examples (issue 24), so a visitor sees
 * custom commands, a counter, a timer and quotes answer in the simulated chat before adding their own,
 * moderation on (issue 35), so the demo's spam lines are caught once chat is on, and the game
 * commands' player set to one the simulated game provider knows (issue 36), so `!rank` answers a rank.
 * They are stored when the demo streamer's account has no custom command, timer or quote yet (its
 * first login; a later login, or one after the visitor emptied a list, adds nothing again).
 * Its OBS (issue 37) is the demo's simulated one, connected from the first login on, with actions on
 * its scenes (a raid switches to the Raid scene).
 */
import type { Account } from "../db/accounts.ts";
import { addCustomCommand, countCustomCommands, type NewCustomCommand } from "../db/custom-commands.ts";
import { setModerationEnabled } from "../db/moderation.ts";
import { readObs } from "../db/obs.ts";
import { addQuote, countQuotes } from "../db/quotes.ts";
import type { NewTimer } from "../db/timers.ts";
import { addTimer, listTimers } from "../db/timers.ts";
import type { ActionInput } from "./actions/model.ts";
import { createAction, listActions } from "./actions/store.ts";
import type { CommandContext } from "./bot/context.ts";
import { type GamePlayer, setGamePlayer } from "./bot/game-player.ts";
import type { CoreContext } from "./core/context.ts";
import type { ChatBotCache } from "./custom/cache.ts";
import type { ObsContext } from "./obs/context.ts";
import { changeObs } from "./obs/dashboard.ts";
import type { DemoObs } from "./obs/demo-program.ts";
import { DEMO_STREAMER_LOGIN } from "./sim/twitch/world.ts";

/** The demo's commands: a link, a greeting with `$(user)`, a counter and a `$(touser)` one. */
export const DEMO_COMMANDS: readonly NewCustomCommand[] = [
  { name: "discord", response: "Join the community Discord: https://discord.gg/cuebot-demo" },
  { name: "lurk", response: "$(user) is lurking in the shadows. Enjoy the stream!", cooldownSeconds: 5 },
  { name: "deaths", response: "The streamer has died $(count) times so far.", cooldownSeconds: 5 },
  { name: "hug", response: "$(user) gives $(touser) a warm hug!", cooldownSeconds: 5 },
];

export const DEMO_TIMER: NewTimer = {
  name: "discord-reminder",
  message: "Enjoying the stream? Type !discord to join the community.",
  intervalMinutes: 15,
  minChatLines: 2,
};

/** The demo's quotes, oldest first, with the game being played. */
export const DEMO_QUOTES: readonly { text: string; game: string }[] = [
  { text: "I'm not lost, I'm exploring.", game: "VALORANT" },
  { text: "That was the plan all along.", game: "VALORANT" },
  { text: "One more game, then I'll sleep.", game: "Just Chatting" },
];

/** The demo streamer's VALORANT player: the simulated game provider's first seeded one (sim/game/players.ts). */
export const DEMO_PLAYER: GamePlayer = { region: "eu", name: "Kestrel", tag: "EUW" };

/**
 * The demo's actions, on the demo OBS's scenes (sim/obs/seed.ts): a raid switches to the Raid scene
 * with a welcome and back, `!brb` from a moderator, and two buttons for the Deck.
 */
export const DEMO_ACTIONS: readonly ActionInput[] = [
  {
    name: "Raid welcome",
    enabled: true,
    cooldownSeconds: 10,
    trigger: { type: "alert", kind: "raid", min: 1, reward: null },
    steps: [
      { type: "obs.text", source: "Raid banner", text: "Welcome, {user} and {amount} raiders!" },
      { type: "obs.scene", scene: "Raid" },
      { type: "wait", seconds: 8 },
      { type: "obs.scene", scene: "Live" },
    ],
  },
  {
    name: "Be right back",
    enabled: true,
    cooldownSeconds: 5,
    trigger: { type: "command", command: "brb", level: "moderator" },
    steps: [
      { type: "obs.scene", scene: "BRB" },
      { type: "chat", text: "Be right back: grab a drink, stretch, the stream goes on in a minute." },
    ],
  },
  {
    name: "Back to live",
    enabled: true,
    cooldownSeconds: 0,
    trigger: { type: "button" },
    steps: [{ type: "obs.scene", scene: "Live" }],
  },
  {
    name: "Raid alarm",
    enabled: true,
    cooldownSeconds: 0,
    trigger: { type: "button" },
    steps: [
      { type: "obs.source", scene: "Live", source: "Raid alarm", visible: true, seconds: 6 },
      { type: "obs.media", source: "Raid alarm", action: "restart" },
    ],
  },
];

/** What seeding reads: the config (is this the demo), the data, the caches to clear, the demo's OBS. */
export interface DemoSeedContext
  extends Pick<CoreContext, "config" | "db" | "clock" | "secrets" | "log" | "externalChanges">,
    Pick<CommandContext, "settingsCache">,
    Pick<ObsContext, "obs"> {
  readonly chatBot: ChatBotCache;
  readonly demoObs: DemoObs | null;
  /** Told when the demo's actions are stored, so the live layer reads them. */
  readonly actions: { changed(accountId: number): void };
}

/** Everything the demo streamer's account starts with; failures are logged, the login goes on. */
export async function seedDemo(ctx: DemoSeedContext, account: Account): Promise<void> {
  await seedDemoChatBot(ctx, account).catch((error: unknown) =>
    ctx.log.warn("could not store the demo's chat-bot examples", { error }),
  );
  await seedDemoObs(ctx, account).catch((error: unknown) =>
    ctx.log.warn("could not connect the demo's OBS", { error }),
  );
}

/**
 * Connects the demo streamer's account to the demo's simulated OBS (server/demo.ts) and stores the
 * demo's actions, when it has no OBS settings yet; true when it did.
 */
export async function seedDemoObs(ctx: DemoSeedContext, account: Account): Promise<boolean> {
  const obs = ctx.demoObs;
  if (!ctx.config.demo || !obs || account.login !== DEMO_STREAMER_LOGIN) return false;
  if (await readObs(ctx.db, ctx.secrets, account.id)) return false;
  await changeObs(ctx, account.id, { enabled: true, url: obs.url, via: "server", password: obs.password });
  if ((await listActions(ctx.db, account.id)).length > 0) return true;
  const now = ctx.clock.now();
  for (const action of DEMO_ACTIONS) await createAction(ctx.db, account.id, action, now);
  ctx.actions.changed(account.id);
  return true;
}

/** Stores the examples on the demo streamer's account when it has none; true when it did. */
export async function seedDemoChatBot(ctx: DemoSeedContext, account: Account): Promise<boolean> {
  if (!ctx.config.demo || account.login !== DEMO_STREAMER_LOGIN) return false;
  const [commands, timers, quotes] = await Promise.all([
    countCustomCommands(ctx.db, account.id),
    listTimers(ctx.db, account.id),
    countQuotes(ctx.db, account.id),
  ]);
  if (commands > 0 || timers.length > 0 || quotes > 0) return false;
  const now = ctx.clock.now();
  for (const command of DEMO_COMMANDS) await addCustomCommand(ctx.db, account.id, command, now);
  await addTimer(ctx.db, account.id, DEMO_TIMER, now);
  for (const quote of DEMO_QUOTES) await addQuote(ctx.db, account.id, quote, now);
  // The demo's spam bot and caps shouter (server/demo.ts) meet the filters once chat is on.
  await setModerationEnabled(ctx.db, account.id, true, now);
  await setGamePlayer(ctx, account.id, DEMO_PLAYER);
  ctx.chatBot.clear();
  ctx.chatBot.timersChanged(account.id);
  return true;
}
