import type { Account } from "../../db/accounts.ts";
import { ApiError } from "../core/errors.ts";
import type { GameType } from "../game/format.ts";
import { parsePlayer } from "../game/player.ts";
import { lastMatchRecord, rankRecord, statsRecord, todayRecord } from "../game/records.ts";
import { ROLE_QUOTAS } from "../limits/tables.ts";
import type { Context } from "../runtime.ts";
import type { CommandOptions, GameCommandName } from "./catalog.ts";
import type { CommandReply } from "./runner.ts";

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
export async function gameCommand<C extends GameCommandName>(
  ctx: Context,
  account: Account,
  command: C,
  options: CommandOptions<C>,
): Promise<CommandReply> {
  if (options.name.trim() === "" || options.tag.trim() === "") {
    throw new ApiError(
      400,
      "player_not_set",
      `The streamer has not set the player for !${command} yet (dashboard → Commands → !${command}).`,
    );
  }
  const q = parsePlayer(options.region, options.name, options.tag, ENDPOINT[command]);
  const ttl = ROLE_QUOTAS[account.role].commandCacheTtlMs;
  const type = "type" in options ? (options.type as GameType) : undefined;
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
