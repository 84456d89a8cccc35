import { type Static, Type as T, type TSchema } from "@sinclair/typebox";
import type { Account } from "../../db/accounts.ts";
import { ApiError } from "../core/errors.ts";
import { REGIONS } from "../game/client.ts";
import type { GameType } from "../game/format.ts";
import { parsePlayer } from "../game/player.ts";
import { type GameContext, lastMatchRecord, rankRecord, statsRecord, todayRecord } from "../game/records.ts";
import { ROLE_QUOTAS } from "../limits/tables.ts";
/** The commands that report on the streamer's game player (the game API, from chat). */
import type { GameCommandName } from "../vocabulary.ts";
import { type CommandReply, defineCommand } from "./definition.ts";

export { GAME_COMMANDS, type GameCommandName } from "../vocabulary.ts";

/** The player a game command reports on, set once by the streamer; an empty name means "not set yet". */
const playerFields = {
  region: T.Union(
    REGIONS.map((r) => T.Literal(r)),
    { description: REGIONS.join(", ") },
  ),
  name: T.String({ maxLength: 16 }),
  tag: T.String({ maxLength: 5 }),
};
const PlayerOptions = T.Object(playerFields, { additionalProperties: false });
/** With the record's detail level: 1, 2 or 3 as the game API's `type`. */
const TypedPlayerOptions = T.Object(
  { ...playerFields, type: T.Integer({ minimum: 1, maximum: 3 }) },
  { additionalProperties: false },
);
const NO_PLAYER = { region: "na", name: "", tag: "" } as const;

/** The options of every game command: the player, and for most the detail level. */
export type PlayerChoice = Static<typeof PlayerOptions> & { type?: number };

const ENDPOINT: Record<GameCommandName, string> = {
  rank: "rank",
  lastmatch: "match/last",
  today: "today",
  stats: "stats",
};

/**
 * A game command for the streamer's own player: the same record and chat line as the game API
 * (`/api/game/...`) for that player, with the role's command cache lifetime.
 */
export async function gameCommand(
  ctx: GameContext,
  account: Account,
  command: GameCommandName,
  options: PlayerChoice,
): Promise<CommandReply> {
  if (options.name.trim() === "" || options.tag.trim() === "") {
    throw new ApiError(
      400,
      "player_not_set",
      `The streamer has not set their VALORANT player for !${command} yet (dashboard → Commands → Your VALORANT player).`,
    );
  }
  const q = parsePlayer(options.region, options.name, options.tag, ENDPOINT[command]);
  const ttl = ROLE_QUOTAS[account.role].commandCacheTtlMs;
  const type = options.type as GameType | undefined;
  const record =
    command === "rank"
      ? await rankRecord(ctx, q, type, ttl)
      : command === "today"
        ? await todayRecord(ctx, q, type, ttl)
        : command === "stats"
          ? await statsRecord(ctx, q, type, ttl)
          : await lastMatchRecord(ctx, q, ttl);
  return { ...record.data };
}

/** A game command's definition: no arguments and no bot endpoint of its own (the game API is `/api/game/`). */
function gameCommandDefinition<const N extends GameCommandName, O extends TSchema>(
  name: N,
  about: { description: string; options: O; defaults: Static<O>; aliases: readonly string[] },
) {
  return defineCommand({
    name,
    ...about,
    inputs: {},
    run: (ctx, account, _input, options) => gameCommand(ctx, account, name, options as PlayerChoice),
  });
}

export const rankCommand = gameCommandDefinition("rank", {
  description: "The streamer's VALORANT rank",
  options: TypedPlayerOptions,
  defaults: { ...NO_PLAYER, type: 2 },
  aliases: [],
});

export const lastmatchCommand = gameCommandDefinition("lastmatch", {
  description: "The streamer's last competitive VALORANT match",
  options: PlayerOptions,
  defaults: { ...NO_PLAYER },
  aliases: ["lastgame"],
});

export const todayCommand = gameCommandDefinition("today", {
  description: "The streamer's competitive VALORANT session over the last 24 hours",
  options: TypedPlayerOptions,
  defaults: { ...NO_PLAYER, type: 2 },
  aliases: [],
});

export const statsCommand = gameCommandDefinition("stats", {
  description: "The streamer's VALORANT statistics over the last 10 competitive matches",
  options: TypedPlayerOptions,
  defaults: { ...NO_PLAYER, type: 3 },
  aliases: [],
});
