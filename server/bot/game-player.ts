import type { GameRegion } from "../vocabulary.ts";
import type { CommandContext } from "./context.ts";
import { GAME_COMMANDS } from "./game-commands.ts";
import { applySettingsPatch, commandSettings, updateCommandSettings } from "./settings.ts";

/** The streamer's VALORANT player, which every game command reports on. */
export interface GamePlayer {
  region: GameRegion;
  name: string;
  tag: string;
}

/**
 * Sets the player of every game command at once (the streamer types it once, not four times), each
 * command's detail level kept. Checked first, so a wrong value stores nothing; the 400 names the option.
 */
export async function setGamePlayer(
  ctx: Pick<CommandContext, "db" | "clock" | "settingsCache">,
  accountId: number,
  player: { region?: unknown; name?: unknown; tag?: unknown },
): Promise<GamePlayer> {
  const options = {
    region: typeof player.region === "string" ? player.region.trim().toLowerCase() : player.region,
    name: typeof player.name === "string" ? player.name.trim() : player.name,
    tag: typeof player.tag === "string" ? player.tag.trim() : player.tag,
  };
  const [first] = GAME_COMMANDS;
  applySettingsPatch(await commandSettings(ctx, accountId, first), { options });
  for (const command of GAME_COMMANDS) await updateCommandSettings(ctx, accountId, command, { options });
  return options as GamePlayer;
}

/** The player the game commands report on, as the dashboard shows it once for the four. */
export interface GamePlayerView {
  /** The first game command's player that is set, or null when none is. */
  player: GamePlayer | null;
  /** Some game command reports on another player (each was set on its own before). */
  differs: boolean;
}

export async function readGamePlayer(
  ctx: Pick<CommandContext, "db" | "settingsCache">,
  accountId: number,
): Promise<GamePlayerView> {
  const players = await Promise.all(
    GAME_COMMANDS.map(async (command) => {
      const { region, name, tag } = (await commandSettings(ctx, accountId, command)).options;
      return { region, name, tag };
    }),
  );
  const key = (p: GamePlayer) => `${p.region}/${p.name}/${p.tag}`;
  const set = players.filter((p) => p.name !== "" && p.tag !== "");
  return {
    player: set[0] ?? null,
    differs: new Set(players.map(key)).size > 1,
  };
}
