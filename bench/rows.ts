import type { Fixture } from "./fixture.ts";
import { VIEWER } from "./fixture.ts";
import { distinctClientsScript, rotatingPathsScript } from "./wrk.ts";

/** The hot paths of issue 10, as the bench drives them (bench/run.ts measures; these tools look closer). */
export type HotRow = "refused" | "game" | "bot" | "healthz";
export const HOT_ROWS: readonly HotRow[] = ["refused", "game", "bot", "healthz"];

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
    const url = `${serverUrl}/api/bot/coinflip?apiKey=${fixture.refused.apiKey}`;
    for (let i = 0; i < 31; i++) await (await fetch(url)).arrayBuffer();
    return { url };
  }
  if (row === "game") {
    const path = "/api/game/rank/eu/Kestrel/EUW?type=3&format=text";
    await (await fetch(serverUrl + path)).arrayBuffer();
    return { url: serverUrl + path, script: distinctClientsScript({ path, offset: 1 << 20 }) };
  }
  const paths = fixture.streamers.map(
    (s) => `/api/followage?apiKey=${s.apiKey}&channel=${s.login}&user=${VIEWER}`,
  );
  for (const path of paths) await (await fetch(serverUrl + path)).arrayBuffer();
  return { url: serverUrl + paths[0], script: rotatingPathsScript(paths) };
}
