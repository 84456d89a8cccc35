import { createFixture, type Fixture, startBare, startBinary } from "./fixture.ts";
import { GAME_JSON_PATH, GAME_PATH } from "./rows.ts";
import type { TableRow } from "./table.ts";
import { distinctClientsScript, medianOf, type WrkResult, wrk } from "./wrk.ts";

/**
 * The JSON game row (issue 26 §2): the cached rank answer in the game API's own format, which most
 * callers read, every request from a new client address. Its target is relative to the text-mode row
 * measured in the same run: the two answers come from the same cache entry, so JSON may cost at most
 * 0.05 of the yardstick more than text. `bun bench/json-row.ts [--binary PATH] [--rounds N]` measures
 * the text and JSON rows alone, alternating, against a bare `Bun.serve` (build first).
 */

export const JSON_ROW = "game API cache hit (JSON, distinct client IPs)";
/** How far below the text row's ratio the JSON row may be. */
export const JSON_ROW_TOLERANCE = 0.05;
/** Client addresses of its own, past the text row's (1 << 20) and the RSS flood's (2 << 20 + 1 M). */
const JSON_OFFSET = 4 << 20;

/** Warms the JSON answer, checks it is one, and returns what wrk should send. */
export async function jsonGameRow(
  serverUrl: string,
  fixture: Fixture,
): Promise<{ path: string; script: string }> {
  const warm = await fetch(serverUrl + GAME_JSON_PATH);
  const type = warm.headers.get("content-type") ?? "";
  if (warm.status !== 200 || !type.startsWith("application/json")) {
    throw new Error(`JSON game warm-up answered ${warm.status} ${type}: ${await warm.text()}`);
  }
  await warm.arrayBuffer();
  fixture.game.resetCalls();
  return {
    path: GAME_JSON_PATH,
    script: distinctClientsScript({ path: GAME_JSON_PATH, offset: JSON_OFFSET }),
  };
}

/** The table row: the JSON ratio, its gap to the text row's, and whether it is within the target. */
export function jsonGameTableRow(
  json: WrkResult,
  text: WrkResult,
  bare: WrkResult,
  upstreamCalls: number,
  p99TargetMs: number,
): TableRow {
  const ratio = json.rps / bare.rps;
  const textRatio = text.rps / bare.rps;
  const met = (pass: boolean) => (pass ? "met" : "MISSED");
  return {
    bench: "dist/cuebot",
    measure: JSON_ROW,
    value: `${ratio.toFixed(2)}×`,
    note:
      `${Math.round(json.rps)} req/s, p99 ${json.p99Ms.toFixed(2)} ms; target within ${JSON_ROW_TOLERANCE} of the text row ` +
      `(${textRatio.toFixed(2)}×) ${met(ratio >= textRatio - JSON_ROW_TOLERANCE)}, p99 ≤ ${p99TargetMs} ms ` +
      `${met(json.p99Ms <= p99TargetMs)}; ${json.non2xx} non-2xx, ${upstreamCalls} upstream calls`,
  };
}

/** Standalone: the text and the JSON rows of one binary, alternated, each as a ratio to a bare server. */
async function compare(rounds: number, seconds: number): Promise<void> {
  const fixture = await createFixture(1);
  const bareServer = await startBare();
  const server = await startBinary(fixture, { settled: true });
  try {
    const measure = (url: string, script?: string) =>
      medianOf(3, () => wrk({ url, script, durationSeconds: seconds }));
    await (await fetch(server.url + GAME_PATH)).arrayBuffer();
    const json = await jsonGameRow(server.url, fixture);
    for (let round = 0; round < rounds; round++) {
      const bare = await measure(`${bareServer.url}/`, distinctClientsScript());
      const offset = (1 << 20) + round * 500_000;
      const text = await measure(server.url + GAME_PATH, distinctClientsScript({ path: GAME_PATH, offset }));
      const jsonScript = distinctClientsScript({ path: json.path, offset: JSON_OFFSET + round * 500_000 });
      const jsonResult = await measure(server.url + json.path, jsonScript);
      const row = jsonGameTableRow(jsonResult, text, bare, fixture.game.totalCalls(), 2);
      console.log(
        `round ${round + 1}: bare ${Math.round(bare.rps)} req/s; text ${(text.rps / bare.rps).toFixed(2)}× ` +
          `(${Math.round(text.rps)} req/s, p99 ${text.p99Ms.toFixed(2)} ms); JSON ${row.value} ${row.note}`,
      );
    }
  } finally {
    await server.stop();
    await bareServer.stop();
    await fixture.stop();
  }
}

if (import.meta.main) {
  const flag = (name: string, fallback: number) => {
    const at = process.argv.indexOf(name);
    return at === -1 ? fallback : Number(process.argv[at + 1]);
  };
  await compare(flag("--rounds", 2), flag("--seconds", 2));
  process.exit(0);
}
