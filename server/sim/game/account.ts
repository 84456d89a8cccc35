import { okJson, type PlayerRequest } from "./answers.ts";
import { cardAssets, relativeText } from "./fields.ts";
import { puuidOf, type SeedPlayer, seededUuid } from "./players.ts";

/** The account resource: `GET /valorant/v1/account/{name}/{tag}`. */
export function accountAnswer({ player, now, headers }: PlayerRequest): Response {
  return okJson({ data: accountJson(player, now) }, headers);
}

function accountJson(player: SeedPlayer, now: number) {
  const cardId = seededUuid(`card:${puuidOf(player)}`);
  const updated = now - 5 * 60_000;
  return {
    puuid: puuidOf(player),
    region: player.region,
    account_level: player.level,
    name: player.name,
    tag: player.tag,
    card: { ...cardAssets(cardId), id: cardId },
    last_update: relativeText(now - updated),
    last_update_raw: Math.floor(updated / 1000),
  };
}
