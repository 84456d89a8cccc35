import type { Fixture } from "./fixture.ts";
import { VIEWER } from "./fixture.ts";
import { distinctClientsScript, rotatingPathsScript } from "./wrk.ts";

/** The hot paths of issue 10, as the bench drives them (bench/run.ts measures; these tools look closer). */
export type HotRow = "refused" | "game" | "game-json" | "bot" | "healthz";
export const HOT_ROWS: readonly HotRow[] = ["refused", "game", "game-json", "bot", "healthz"];

/** The refused row's request: a Default key driven past its quota beforehand. */
export function refusedPath(fixture: Pick<Fixture, "refused">): string {
  return `/api/bot/coinflip?apiKey=${fixture.refused.apiKey}`;
}

/** The game row's request: a cached rank in text mode. */
export const GAME_PATH = "/api/game/rank/eu/Kestrel/EUW?type=3&format=text";

/** The JSON game row's request: the same cached rank in the game API's own format (no `format`). */
export const GAME_JSON_PATH = "/api/game/rank/eu/Kestrel/EUW?type=3";

/** The bot row's requests: followage, one per streamer's key (so no key meets its quota). */
export function botPaths(fixture: Pick<Fixture, "streamers">): string[] {
  return fixture.streamers.map((s) => `/api/followage?apiKey=${s.apiKey}&channel=${s.login}&user=${VIEWER}`);
}

/** How many streamers a fixture needs for `row` (one key each, so none meets its quota). */
export function streamersFor(row: HotRow): number {
  return row === "bot" ? 6_000 : 1;
}

/**
 * Brings the running server to the row's steady state (the key over its quota, the caches warm) and
 * returns what wrk should send.
 */
export async function prepareRow(
  row: HotRow,
  fixture: Fixture,
  serverUrl: string,
): Promise<{ url: string; script?: string }> {
  if (row === "healthz") return { url: `${serverUrl}/healthz` };
  if (row === "refused") {
    const url = serverUrl + refusedPath(fixture);
    for (let i = 0; i < 31; i++) await (await fetch(url)).arrayBuffer();
    return { url };
  }
  if (row === "game" || row === "game-json") {
    const path = row === "game" ? GAME_PATH : GAME_JSON_PATH;
    await (await fetch(serverUrl + path)).arrayBuffer();
    return { url: serverUrl + path, script: distinctClientsScript({ path, offset: 1 << 20 }) };
  }
  const paths = botPaths(fixture);
  for (const path of paths) await (await fetch(serverUrl + path)).arrayBuffer();
  return { url: serverUrl + paths[0], script: rotatingPathsScript(paths) };
}
