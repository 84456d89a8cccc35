// The shared rows of `npm run bench` (bench/run.ts): the request rows with the limits in a real
// Redis, one instance and two, on the data folder's SQLite file and then on PostgreSQL (issue 13).
import { join } from "node:path";
import {
  type PostgresServer,
  type RedisServer,
  startPostgres,
  startRedis,
} from "../tests/helpers/engines.ts";
import { BINARY, type Fixture, startBinary } from "./fixture.ts";
import { botPaths, GAME_PATH, refusedPath as refusedPathOf } from "./rows.ts";
import type { TableRow } from "./table.ts";
import { distinctClientsScript, medianOf, rotatingPathsScript, type WrkResult, wrk } from "./wrk.ts";

/** What the shared rows take from the run: its measurement settings, and where its rows go. */
export interface BenchRun {
  runs: number;
  durationSeconds: number;
  /** The median of `runs` wrk runs of `durationSeconds` on `url` (wrk -t1 -c64). */
  measure(url: string, script?: string): Promise<WrkResult>;
  add(row: TableRow): void;
}

/** The same Lua work per request split over two wrk processes, one per instance (a balancer's job). */
async function measurePair(
  bench: BenchRun,
  urls: [string, string],
  scripts: [string | undefined, string | undefined],
) {
  return medianOf(bench.runs, async () => {
    const [one, two] = await Promise.all(
      urls.map((url, i) =>
        wrk({ url, script: scripts[i], durationSeconds: bench.durationSeconds, connections: 32 }),
      ),
    );
    return {
      rps: one!.rps + two!.rps,
      p99Ms: Math.max(one!.p99Ms, two!.p99Ms),
      non2xx: one!.non2xx + two!.non2xx,
      requests: one!.requests + two!.requests,
    };
  });
}

/** The stores of a group of shared rows: Redis, and PostgreSQL or the data folder's SQLite file. */
interface SharedStoresUnderTest {
  label: string;
  redisUrl: string;
  databaseUrl?: string;
}

/**
 * The fixture's data in a fresh PostgreSQL cluster on loopback, copied there by `cuebot db copy` (the
 * way an install moves); the reason instead when there is no PostgreSQL here.
 */
async function postgresCopy(fixture: Fixture): Promise<{ server: PostgresServer; url: string } | string> {
  let server: PostgresServer;
  try {
    server = await startPostgres();
  } catch (error) {
    return (error as Error).message;
  }
  const url = server.urlOf("postgres");
  const copy = Bun.spawnSync(
    [BINARY, "db", "copy", "--from", join(fixture.dataDir, "cuebot.db"), "--to", url],
    { env: { ...process.env, ...fixture.env }, stdout: "pipe", stderr: "pipe" },
  );
  if (copy.exitCode !== 0) {
    server.stop();
    throw new Error(`db copy failed: ${copy.stderr.toString()}`);
  }
  return { server, url };
}

/**
 * The three request rows with the limits in a real redis-server on loopback (one Lua round trip per
 * check), for one instance and for two instances: on the data folder's SQLite file (`--redis-url`),
 * then on PostgreSQL (`--database-url`, `--redis-url`). No targets: issue 13 asks for the figures and
 * the cost of the round trips beside the embedded ones.
 */
export async function sharedRows(bench: BenchRun, fixture: Fixture, bare: WrkResult): Promise<void> {
  // A fresh Redis per group: the quota windows of one group must not carry over into the next.
  const withRedis = async (run: (redisUrl: string) => Promise<void>) => {
    let redis: RedisServer;
    try {
      redis = await startRedis();
    } catch (error) {
      bench.add({
        bench: "dist/cuebot",
        measure: "shared limits (Redis)",
        value: "skipped",
        note: `no redis-server: ${(error as Error).message}`,
      });
      return;
    }
    try {
      await run(redis.url);
    } finally {
      await redis.stop();
    }
  };
  await withRedis((redisUrl) => sharedGroup(bench, fixture, bare, { label: "--redis-url", redisUrl }));
  const postgres = await postgresCopy(fixture);
  if (typeof postgres === "string") {
    bench.add({
      bench: "dist/cuebot",
      measure: "PostgreSQL + Redis",
      value: "skipped",
      note: `no PostgreSQL: ${postgres}`,
    });
    return;
  }
  try {
    await withRedis((redisUrl) =>
      sharedGroup(bench, fixture, bare, {
        label: "--database-url --redis-url",
        redisUrl,
        databaseUrl: postgres.url,
      }),
    );
  } finally {
    postgres.server.stop();
  }
}

async function sharedGroup(
  bench: BenchRun,
  fixture: Fixture,
  bare: WrkResult,
  stores: SharedStoresUnderTest,
): Promise<void> {
  const note = (result: WrkResult, extra = "") =>
    `${Math.round(result.rps)} req/s, p99 ${result.p99Ms.toFixed(2)} ms${extra}; no target`;
  const shared = (name: string, result: WrkResult, extra = "") =>
    bench.add({
      bench: stores.label,
      measure: name,
      value: `${(result.rps / bare.rps).toFixed(2)}×`,
      note: note(result, extra),
    });
  const options = {
    settled: true,
    redisUrl: stores.redisUrl,
    ...(stores.databaseUrl ? { databaseUrl: stores.databaseUrl } : {}),
  };
  const instances = [await startBinary(fixture, options), await startBinary(fixture, options)] as const;
  try {
    const [one, two] = instances;
    const refused = refusedPathOf(fixture);
    for (let i = 0; i < 31; i++) await (await fetch(`${one.url}${refused}`)).arrayBuffer();
    shared("refused request (429), 1 instance", await bench.measure(`${one.url}${refused}`));
    const gamePath = GAME_PATH;
    for (const server of instances) await (await fetch(`${server.url}${gamePath}`)).arrayBuffer();
    const gameScript = (offset: number) => distinctClientsScript({ path: gamePath, offset });
    shared(
      "game API cache hit, 1 instance",
      await bench.measure(`${one.url}${gamePath}`, gameScript(3 << 20)),
    );
    const paths = botPaths(fixture);
    // The follow dates are cached per instance: warm both.
    for (const server of instances) {
      const warming = [...paths];
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          for (let path = warming.pop(); path; path = warming.pop()) {
            await (await fetch(`${server.url}${path}`)).arrayBuffer();
          }
        }),
      );
    }
    const half = Math.floor(paths.length / 2);
    const bot = await bench.measure(`${one.url}${paths[0]}`, rotatingPathsScript(paths.slice(0, half)));
    shared("bot command cache hit, 1 instance", bot, `; ${bot.non2xx} non-2xx`);
    const pairGame = await measurePair(
      bench,
      [one.url + gamePath, two.url + gamePath],
      [gameScript(4 << 20), gameScript(5 << 20)],
    );
    shared("game API cache hit, 2 instances", pairGame, " (sum of two wrk -c32)");
    const pairBot = await measurePair(
      bench,
      [one.url + paths[half]!, two.url + paths[half]!],
      [rotatingPathsScript(paths.slice(half)), rotatingPathsScript(paths.slice(half).reverse())],
    );
    shared(
      "bot command cache hit, 2 instances",
      pairBot,
      ` (sum of two wrk -c32); ${pairBot.non2xx} non-2xx`,
    );
  } finally {
    for (const server of instances) await server.stop();
  }
}
