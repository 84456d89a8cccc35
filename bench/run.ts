import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { chatScaleRows } from "./chat-scale.ts";
import {
  BINARY,
  createFixture,
  type Fixture,
  ROOT,
  type RunningBinary,
  startBare,
  startBinary,
} from "./fixture.ts";
import { footprintRows, measureIdle } from "./footprint.ts";
import { JSON_ROW_TOLERANCE, jsonGameRow, jsonGameTableRow } from "./json-row.ts";
import { moderationRows } from "./moderation-load.ts";
import { obsLatencyRows } from "./obs-latency.ts";
import { botPaths, GAME_PATH, refusedPath as refusedPathOf } from "./rows.ts";
import { type BenchRun, sharedRows } from "./shared-rows.ts";
import { soak, soakRows } from "./soak.ts";
import { formatTable, type TableRow } from "./table.ts";
import {
  distinctClientsScript,
  medianOf,
  rotatingPathsDistinctClientsScript,
  rotatingPathsScript,
  type WrkResult,
  wrk,
} from "./wrk.ts";

/**
 * `npm run bench`: the seven figures of issue 10 for the built binary `dist/cuebot` (black box),
 * each throughput a ratio to a bare `Bun.serve` returning constant JSON measured in the same run, so
 * the figures mean the same on any machine. wrk -t1 -c64 on loopback, median of 3 runs, p99 included.
 * It builds the binary first. `bun bench/run.ts --quick` runs 1 s instead of 2 s per measurement;
 * `--binary PATH` measures another build instead (e.g. an older commit's) without building;
 * `--before PATH` adds the chat rows of that build, measured in the same run (bench/chat-scale.ts).
 */

const quick = process.argv.includes("--quick");
/**
 * `--only refused,game,bot` (or cold, rss, stampede, references, shared, chat, moderation, obs, footprint):
 * just those rows, after the yardstick when one of them is measured against it.
 */
const onlyFlag = process.argv.indexOf("--only");
const only = onlyFlag === -1 ? null : new Set(process.argv[onlyFlag + 1]?.split(","));
type RowGroup =
  | "refused"
  | "game"
  | "bot"
  | "references"
  | "cold"
  | "rss"
  | "stampede"
  | "shared"
  | "chat"
  | "moderation"
  | "obs"
  | "footprint"
  | "soak";
const wanted = (name: RowGroup) => only === null || only.has(name);
/** `--soak-minutes N`: the demo's traffic for N minutes (bench/soak.ts); none by default (it takes long). */
const soakFlag = process.argv.indexOf("--soak-minutes");
const SOAK_MINUTES = soakFlag === -1 ? 0 : Number(process.argv[soakFlag + 1]);
/** `--before PATH`: the chat rows of that build too, on a data folder of its own, before this one's. */
const beforeFlag = process.argv.indexOf("--before");
const BEFORE = beforeFlag === -1 ? undefined : resolve(process.argv[beforeFlag + 1]!);
/** Native chat at scale (bench/chat-scale.ts): channels, and the rates whose replies are timed. */
const CHAT = { channels: 1_000, rates: [200, 500, 1_000], seconds: quick ? 5 : 10, before: BEFORE } as const;
/** Chat moderation under load (bench/moderation-load.ts): all filters on, and off, in turns. */
const MODERATION = { channels: 100, rate: 1_000, seconds: quick ? 5 : 10, caughtEvery: 20 } as const;
/** Actions (bench/obs-latency.ts): raids timed to OBS, on the simulator and a real OBS when installed. */
const OBS = { events: quick ? 50 : 200 } as const;
/** The rows measured against the yardstick, on the fixture of the HTTP rows. */
const YARDSTICK_ROWS: readonly RowGroup[] = [
  "refused",
  "game",
  "bot",
  "references",
  "cold",
  "rss",
  "stampede",
  "shared",
];
const DURATION_S = quick ? 1 : 2;
const RUNS = 3;
/** Partner keys (120/min each): 3 runs × 2 s at 100 k req/s stay under every key's quota. */
const STREAMERS = 6_000;
const FLOOD_ADDRESSES = 1_000_000;
const STAMPEDE = 1_000;

const TARGETS = {
  refused: 0.8,
  game: 0.7,
  bot: 0.7,
  p99Ms: 2,
  coldStartMs: 300,
  rssMb: 150,
  upstreamPerRoute: 1,
};

function ok(pass: boolean): string {
  return pass ? "met" : "MISSED";
}

type BareServer = Awaited<ReturnType<typeof startBare>>;

const rows: TableRow[] = [];
const row = (measure: string, value: string, note: string) =>
  rows.push({ bench: "dist/cuebot", measure, value, note });

async function build(): Promise<void> {
  const proc = Bun.spawn([process.execPath, "scripts/build.ts", "--host-only"], {
    cwd: ROOT,
    stdout: "inherit",
    stderr: "inherit",
  });
  if ((await proc.exited) !== 0) throw new Error("npm run build failed");
}

const measure = (url: string, script?: string) =>
  medianOf(RUNS, () => wrk({ url, script, durationSeconds: DURATION_S }));

/** This run's settings and rows, for the shared rows (shared-rows.ts). */
const thisRun: BenchRun = {
  runs: RUNS,
  durationSeconds: DURATION_S,
  measure,
  add: (added) => rows.push(added),
};

function throughputRow(
  name: string,
  result: WrkResult,
  bare: WrkResult,
  target: number,
  extra: string,
): { ratio: number; p99: number } {
  const ratio = result.rps / bare.rps;
  row(
    name,
    `${(ratio).toFixed(2)}×`,
    `${Math.round(result.rps)} req/s, p99 ${result.p99Ms.toFixed(2)} ms; target ≥ ${target}× ${ok(ratio >= target)}, p99 ≤ ${TARGETS.p99Ms} ms ${ok(result.p99Ms <= TARGETS.p99Ms)}${extra}`,
  );
  return { ratio, p99: result.p99Ms };
}

/** A yardstick other than the bare one, measured like it, as a ratio to it (no target). */
async function referenceRow(mode: "contract-reads" | "elysia", name: string, bare: WrkResult): Promise<void> {
  const server = await startBare(mode);
  try {
    const result = await measure(`${server.url}/`, distinctClientsScript());
    row(
      name,
      `${(result.rps / bare.rps).toFixed(2)}×`,
      `${Math.round(result.rps)} req/s, p99 ${result.p99Ms.toFixed(2)} ms; reference, no target`,
    );
  } finally {
    await server.stop();
  }
}

/**
 * What the server answered each path: status, body and headers (but those Bun adds itself). Every
 * reply must have the status the row measured, or the replay would be of another answer.
 */
async function recordReplies(
  baseUrl: string,
  paths: readonly string[],
  status: number,
  file: string,
): Promise<void> {
  const recorded: Record<string, { status: number; headers: [string, string][]; body: string }> = {};
  for (const path of paths) {
    const res = await fetch(baseUrl + path, { headers: { "x-forwarded-for": "192.0.2.1" } });
    if (res.status !== status)
      throw new Error(`${path} answered ${res.status} while recording, not ${status}`);
    recorded[path] = {
      status: res.status,
      headers: [...res.headers].filter(([name]) => name !== "date" && name !== "content-length"),
      body: await res.text(),
    };
  }
  writeFileSync(file, JSON.stringify(recorded));
}

/**
 * The ceiling of one row: a bare `Bun.serve` replaying the replies cuebot gave (bare-server.ts,
 * `replay`), under the same load. It costs what the sockets, Bun's HTTP and the reply's own bytes cost;
 * what cuebot spends beyond it is its own work (key, quota, caches, analytics, the contract's reads).
 * The row says how many µs per request that work may take at the target, and takes now.
 */
async function replayRow(
  serverUrl: string,
  paths: readonly string[],
  status: number,
  script: string | undefined,
  measured: WrkResult,
  bare: WrkResult,
  target: number,
): Promise<void> {
  const file = join(mkdtempSync(join(tmpdir(), "cuebot-bench-replay-")), "replies.json");
  await recordReplies(serverUrl, paths, status, file);
  const replay = await startBare("replay", file);
  try {
    const result = await measure(`${replay.url}${paths[0]}`, script);
    const perRequestUs = (rps: number) => 1e6 / rps;
    const budget = perRequestUs(target * bare.rps) - perRequestUs(result.rps);
    const now = perRequestUs(measured.rps) - perRequestUs(result.rps);
    row(
      "  its ceiling: bare Bun.serve replaying cuebot's replies",
      `${(result.rps / bare.rps).toFixed(2)}×`,
      `${Math.round(result.rps)} req/s, p99 ${result.p99Ms.toFixed(2)} ms; cuebot's own work may take ${budget > 0 ? budget.toFixed(1) : "no"} µs per request at ${target}×, takes ${now.toFixed(1)} µs now`,
    );
  } finally {
    await replay.stop();
    rmSync(dirname(file), { recursive: true, force: true });
  }
}

async function coldStarts(fixture: Fixture): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const server = await startBinary(fixture, { settled: true });
    times.push(server.startMs);
    await server.stop();
  }
  times.sort((a, b) => a - b);
  return times[1]!;
}

/** The yardstick (a bare `Bun.serve`, with the same per-request Lua work as the rows), then the references. */
async function yardstickRows(bareServer: BareServer): Promise<WrkResult> {
  const bare = await measure(`${bareServer.url}/`, distinctClientsScript());
  await bareServer.stop();
  row(
    "bare Bun.serve (yardstick)",
    "1.00×",
    `${Math.round(bare.rps)} req/s, p99 ${bare.p99Ms.toFixed(2)} ms`,
  );
  if (wanted("references")) {
    await referenceRow(
      "contract-reads",
      "ceiling: bare Bun.serve doing only the contract's per-request reads and headers",
      bare,
    );
    await referenceRow("elysia", "floor of the framework: a trivial Elysia route", bare);
  }
  return bare;
}

/** 1. Refused: a Default key (30/min) driven past its quota, then hammered. */
async function refusedRows(server: RunningBinary, fixture: Fixture, bare: WrkResult): Promise<void> {
  const refusedPath = refusedPathOf(fixture);
  for (let i = 0; i < 31; i++) await (await fetch(`${server.url}${refusedPath}`)).arrayBuffer();
  const refusedProbe = await fetch(`${server.url}${refusedPath}`);
  await refusedProbe.arrayBuffer();
  if (refusedProbe.status !== 429) throw new Error(`the refused key answered ${refusedProbe.status}`);
  const refused = await measure(`${server.url}${refusedPath}`);
  throughputRow("refused request (429, key over its quota)", refused, bare, TARGETS.refused, "");
  await replayRow(server.url, [refusedPath], 429, undefined, refused, bare, TARGETS.refused);
}

/** 2. Game API cache hit in text mode, every request from a new client address. */
async function gameCacheRows(server: RunningBinary, fixture: Fixture, bare: WrkResult): Promise<void> {
  const gamePath = GAME_PATH;
  const warm = await fetch(`${server.url}${gamePath}`);
  if (warm.status !== 200) throw new Error(`game warm-up answered ${warm.status}: ${await warm.text()}`);
  await warm.arrayBuffer();
  fixture.game.resetCalls();
  const gameScript = distinctClientsScript({ path: gamePath, offset: 1 << 20 });
  const game = await measure(`${server.url}${gamePath}`, gameScript);
  throughputRow(
    "game API cache hit (text mode, distinct client IPs)",
    game,
    bare,
    TARGETS.game,
    `; ${game.non2xx} non-2xx, ${fixture.game.totalCalls()} upstream calls`,
  );
  await replayRow(server.url, [gamePath], 200, gameScript, game, bare, TARGETS.game);
  // 2b. The same cached answer in JSON, the game API's own format: within 0.05 of the text row.
  const json = await jsonGameRow(server.url, fixture);
  const jsonResult = await measure(`${server.url}${json.path}`, json.script);
  rows.push(jsonGameTableRow(jsonResult, game, bare, fixture.game.totalCalls(), TARGETS.p99Ms));
  const jsonTarget = Number((game.rps / bare.rps - JSON_ROW_TOLERANCE).toFixed(2));
  await replayRow(server.url, [json.path], 200, json.script, jsonResult, bare, jsonTarget);
}

/** 3. Bot command cache hit: followage with the follow date cached, one key per streamer. */
async function botCacheRows(server: RunningBinary, fixture: Fixture, bare: WrkResult): Promise<void> {
  const paths = botPaths(fixture);
  const warming = [...paths];
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let path = warming.pop(); path; path = warming.pop()) {
        const res = await fetch(`${server.url}${path}`);
        if (res.status !== 200) throw new Error(`bot warm-up answered ${res.status}: ${await res.text()}`);
        await res.arrayBuffer();
      }
    }),
  );
  const botScript = rotatingPathsScript(paths);
  const bot = await measure(`${server.url}${paths[0]}`, botScript);
  throughputRow(
    "bot command cache hit (followage)",
    bot,
    bare,
    TARGETS.bot,
    `; ${bot.non2xx} non-2xx over ${STREAMERS} Partner keys`,
  );
  await replayRow(server.url, paths, 200, botScript, bot, bare, TARGETS.bot);
}

/** 5. Cold start, measured by coldStarts() before the measured server started. */
function coldStartRow(coldMs: number): void {
  row(
    "cold start (exec serve → /healthz 200)",
    `${coldMs.toFixed(0)} ms`,
    `median of ${RUNS}; target ≤ ${TARGETS.coldStartMs} ms ${ok(coldMs <= TARGETS.coldStartMs)}`,
  );
}

/** 6. RSS growth after 1,000,000 distinct client addresses through the per-IP limits. */
async function rssGrowthRow(server: RunningBinary): Promise<void> {
  const floodPaths = [
    "/api/game/nothing-here",
    "/no-such-page",
    "/auth/login",
    "/api/bot/coinflip?apiKey=00000000-0000-4000-8000-000000000000",
  ];
  const rssBefore = server.rssMb();
  let sent = 0;
  while (sent < FLOOD_ADDRESSES) {
    const run = await wrk({
      url: `${server.url}/`,
      script: rotatingPathsDistinctClientsScript(floodPaths, (2 << 20) + sent),
      durationSeconds: 5,
    });
    sent += run.requests;
  }
  const growth = server.rssMb() - rssBefore;
  row(
    "RSS growth after 1,000,000 distinct client IPs",
    `${growth >= 0 ? "+" : "−"}${Math.abs(growth).toFixed(0)} MB`,
    `${sent} requests, each from a new address, over the 4 per-IP limits; target ≤ ${TARGETS.rssMb} MB ${ok(growth <= TARGETS.rssMb)}`,
  );
}

/** 7. A cold stampede: identical requests for a player nobody asked about yet. */
async function stampedeRow(server: RunningBinary, fixture: Fixture): Promise<void> {
  fixture.game.resetCalls();
  fixture.game.knobs.latencyMs = 100;
  const stampedePath = "/api/game/stats/na/Night%20Owl/NA1";
  const statuses = await Promise.all(
    Array.from({ length: STAMPEDE }, async (_, i) => {
      const res = await fetch(`${server.url}${stampedePath}`, {
        headers: { "x-forwarded-for": `172.16.${i >> 8}.${i & 255}` },
      });
      await res.arrayBuffer();
      return res.status;
    }),
  );
  fixture.game.knobs.latencyMs = 0;
  const calls = fixture.game.calls;
  const perRoute = Math.max(...Object.values(calls));
  row(
    `${STAMPEDE} concurrent identical cold game requests`,
    `${perRoute} per route`,
    `upstream calls ${JSON.stringify(calls)}; ${statuses.filter((s) => s === 200).length}/${STAMPEDE} answered 200; target ${TARGETS.upstreamPerRoute} ${ok(perRoute <= TARGETS.upstreamPerRoute)}`,
  );
}

/** The yardstick and the rows of one instance of the binary; the yardstick is returned for the shared rows. */
async function singleInstanceRows(fixture: Fixture): Promise<WrkResult> {
  const cold = wanted("cold") ? await coldStarts(fixture) : Number.NaN;
  const bareServer = await startBare();
  const server = await startBinary(fixture, { settled: true });
  try {
    const bare = await yardstickRows(bareServer);
    if (wanted("refused")) await refusedRows(server, fixture, bare);
    if (wanted("game")) await gameCacheRows(server, fixture, bare);
    if (wanted("bot")) await botCacheRows(server, fixture, bare);
    // 4. p99 at 64 connections: in the three rows above.
    if (wanted("cold")) coldStartRow(cold);
    if (wanted("rss")) await rssGrowthRow(server);
    if (wanted("stampede")) await stampedeRow(server, fixture);
    return bare;
  } finally {
    await server.stop();
  }
}

/** The line under the table: date, machine, versions, the binary's size, the run's settings and time. */
async function machineLine(startedAt: number): Promise<string> {
  const cpu = cpus()[0]?.model ?? "unknown CPU";
  const wrkVersion = (
    await new Response(Bun.spawn(["wrk", "-v"], { stdout: "pipe", stderr: "pipe" }).stdout).text()
  )
    .split("\n")[0]
    ?.split(" ")
    .slice(0, 2)
    .join(" ");
  const binarySize = (readFileSync(BINARY).length / 1024 / 1024).toFixed(0);
  return `${new Date().toISOString().slice(0, 10)} · ${cpu} · ${navigator.hardwareConcurrency} cores · bun ${Bun.version} · ${wrkVersion?.trim() || "wrk"} · dist/cuebot ${binarySize} MB · wrk -t1 -c64, ${DURATION_S} s × median of ${RUNS} · ${((performance.now() - startedAt) / 1000).toFixed(0)} s`;
}

/** The yardstick and the rows measured against it, on one fixture of Partner keys. */
async function yardstickedRows(): Promise<void> {
  const fixture = await createFixture(STREAMERS);
  try {
    const bare = await singleInstanceRows(fixture);
    if (wanted("shared") && !process.argv.includes("--no-redis")) await sharedRows(thisRun, fixture, bare);
  } finally {
    await fixture.stop();
  }
}

async function main(): Promise<void> {
  const startedAt = performance.now();
  if (!process.argv.includes("--binary")) await build();
  if (YARDSTICK_ROWS.some(wanted)) await yardstickedRows();
  // Native chat at scale: a data folder and simulators of its own (1,000 streamers with chat on).
  if (wanted("chat")) rows.push(...(await chatScaleRows(CHAT)));
  // Chat moderation at 1,000 messages a second: a data folder and simulators of its own.
  if (wanted("moderation")) rows.push(...(await moderationRows(MODERATION)));
  // Actions: a raid to OBS's scene item shown, on the simulated OBS and a real OBS 29.
  if (wanted("obs")) rows.push(...(await obsLatencyRows(OBS)));
  // Footprint: binary size, RSS and CPU of an idle server on an empty data folder.
  if (wanted("footprint")) rows.push(...footprintRows(await measureIdle(BINARY)));
  // RSS over the demo's traffic: only when asked (`--soak-minutes 60` for the hour in docs/benchmarks.md).
  if (SOAK_MINUTES > 0 && wanted("soak")) rows.push(...soakRows(await soak(BINARY, SOAK_MINUTES)));
  const machine = await machineLine(startedAt);
  console.log(formatTable(rows));
  console.log(`\n${machine}`);
}

await main();
process.exit(0);
