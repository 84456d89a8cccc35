import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ManualClock } from "../../../server/core/clock.ts";
import type { GameSimulator } from "../../../server/sim/game/server.ts";
import type { TestContext } from "../../helpers/context.ts";
import { startGameHarness, stopGameHarness } from "../../helpers/game.ts";

/**
 * Every game answer's body, byte for byte: JSON and text, every endpoint and type, fresh and stale.
 * answer-bodies.golden.json was recorded from the code that serialised each reply per request (before
 * answers were serialised once and kept with the cache entry), so keeping those bodies the same is
 * checked to the byte, key order included. A deliberate change of a record rewrites the file with
 * `CUEBOT_UPDATE_GOLDEN=1 bun test tests/server/game/answer-bodies.test.ts`; review its diff.
 */

const GOLDEN = join(import.meta.dir, "answer-bodies.golden.json");
const TYPES = ["", "?type=1", "?type=2", "?type=3"];
const FRESH = [
  ...TYPES.flatMap((type) =>
    ["rank", "today", "stats"].map((endpoint) => `/${endpoint}/eu/Kestrel/EUW${type}`),
  ),
  "/match/last/eu/Kestrel/EUW",
  `/today/eu/${encodeURIComponent("Αθηνά")}/GR7`,
  `/stats/kr/${encodeURIComponent("호랑이")}/KR1?type=2`,
  "/match/last/na/Night%20Owl/NA1",
];
const STALE = ["/rank/eu/Kestrel/EUW?type=3", "/stats/eu/Kestrel/EUW"];

let clock: ManualClock;
let sim: GameSimulator;
let t: TestContext;

beforeAll(async () => {
  ({ clock, sim, t } = await startGameHarness());
});

afterAll(() => stopGameHarness({ sim, t }));

/** The JSON and the text-mode body of each path, keyed as the golden file keys them. */
async function bodiesOf(paths: readonly string[], prefix: string): Promise<Record<string, string>> {
  const bodies: Record<string, string> = {};
  for (const path of paths) {
    for (const url of [`/api/game${path}`, `/api/game${path}${path.includes("?") ? "&" : "?"}format=text`]) {
      const res = await t.request(url);
      expect(res.status).toBe(200);
      bodies[`${prefix}${url}`] = await res.text();
    }
  }
  return bodies;
}

test("every body is byte for byte what it was", async () => {
  const bodies = await bodiesOf(FRESH, "");
  // Stale: the provider fails after the TTL, and the cached data stands in.
  sim.knobs.failWith = 503;
  clock.advance(5 * 60_000);
  Object.assign(bodies, await bodiesOf(STALE, "stale "));
  if (process.env.CUEBOT_UPDATE_GOLDEN === "1") writeFileSync(GOLDEN, `${JSON.stringify(bodies, null, 2)}\n`);
  const golden = JSON.parse(readFileSync(GOLDEN, "utf8")) as Record<string, string>;
  expect(Object.keys(bodies)).toEqual(Object.keys(golden));
  for (const [url, body] of Object.entries(bodies))
    expect({ url, body }).toEqual({ url, body: golden[url]! });
});
