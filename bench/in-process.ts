import { DatabaseWorker } from "../db/sqlite/database-worker.ts";
import type { WriteBehindEventSink } from "../db/sqlite/write-behind-event-sink.ts";
import { createApp } from "../server/app.ts";
import { loadConfig } from "../server/core/config.ts";
import { createLogger } from "../server/core/log.ts";
import { createContext } from "../server/runtime.ts";
import { createFixture } from "./fixture.ts";
import { botPaths, GAME_JSON_PATH, GAME_PATH, refusedPath } from "./rows.ts";

/**
 * The JavaScript side of the three hot paths alone, without sockets: `bun bench/in-process.ts` calls
 * the app's fetch handler in a loop with ready-made requests (as Bun.serve would) and prints µs per
 * request for each. Quicker and steadier than wrk for trying a change on one path; the figures that
 * count are still `npm run bench`'s.
 */

const ROUNDS = Number(process.argv[2] ?? 200_000);
/** A second argument names one path to run (e.g. under `bun --cpu-prof`). */
const onlyPath = process.argv[3];
/** Keys (Partner, 120/min) and client addresses (100/min) each request cycles through. */
const DISTINCT = 6_000;
if (ROUNDS > DISTINCT * 90) throw new Error(`at most ${DISTINCT * 90} rounds: more would meet the quotas`);
const fixture = await createFixture(DISTINCT);
const config = loadConfig({ dataDir: fixture.dataDir, env: fixture.env });
const ctx = createContext(config, { log: createLogger({ level: "error", format: "json", write: () => {} }) });
const app = createApp(ctx);
// As a serving instance (listen.ts): analytics events are stored by the database worker.
const worker = new DatabaseWorker(ctx.database!.path);
await (ctx.events as WriteBehindEventSink).handOverTo(worker);
// What Bun.serve hands the pipeline: the socket peer of each request (loopback, a trusted proxy).
const peer = { address: "127.0.0.1", family: "IPv4", port: 40000 };
ctx.limits.clientIp.listeningOn({ requestIP: () => peer });

const base = "http://127.0.0.1:8080";
const refusedUrl = base + refusedPath(fixture);
const gameUrl = base + GAME_PATH;
const gameJsonUrl = base + GAME_JSON_PATH;
const botUrls = botPaths(fixture).map((path) => base + path);

async function run(name: string, make: (i: number) => Request, expected: number): Promise<void> {
  if (onlyPath !== undefined && onlyPath !== name) return;
  // Every key and every client address is used at most ROUNDS / DISTINCT + 1 times: under its quota.
  const requests = Array.from({ length: DISTINCT }, (_, i) => make(i));
  // Warm up (and fill the caches), checking every answer once.
  for (let i = 0; i < DISTINCT; i++) {
    const response = await app.handle(make(i));
    await response.arrayBuffer();
    if (response.status !== expected) throw new Error(`${name} answered ${response.status}`);
  }
  const started = performance.now();
  for (let i = 0; i < ROUNDS; i++) {
    const response = app.handle(requests[i % DISTINCT]!.clone());
    if (response instanceof Promise) await response;
  }
  const us = ((performance.now() - started) * 1000) / ROUNDS;
  console.log(`${name.padEnd(9)} ${us.toFixed(2)} µs per request (including Request.clone)`);
}

const ip = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
for (let i = 0; i < 31; i++) await (await app.handle(new Request(refusedUrl))).arrayBuffer();
await run("healthz", () => new Request(`${base}/healthz`), 200);
await run("refused", () => new Request(refusedUrl), 429);
await run("game", (i) => new Request(gameUrl, { headers: { "x-forwarded-for": ip(i) } }), 200);
// Addresses of their own: the game row's have used up to half their per-IP limit already.
await run(
  "game-json",
  (i) => new Request(gameJsonUrl, { headers: { "x-forwarded-for": ip(DISTINCT + i) } }),
  200,
);
await run("bot", (i) => new Request(botUrls[i]!), 200);
const cloneStarted = performance.now();
const template = new Request(gameUrl, { headers: { "x-forwarded-for": "10.0.0.1" } });
for (let i = 0; i < ROUNDS; i++) template.clone();
console.log(
  `clone     ${(((performance.now() - cloneStarted) * 1000) / ROUNDS).toFixed(2)} µs (Request.clone alone)`,
);
await (ctx.events as WriteBehindEventSink).handOverTo(null);
await worker.stop();
await ctx.close();
await fixture.stop();
