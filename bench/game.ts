import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../server/app.ts";
import { loadConfig } from "../server/config.ts";
import { type Context, createContext } from "../server/context.ts";
import { prepareDataDir } from "../server/data-dir.ts";
import { type GameSimulator, startGameSimulator } from "../server/game/sim.ts";
import { createLogger } from "../server/log.ts";
import { formatTable, type TableRow } from "./table.ts";

/**
 * Game API benchmark: cache-hit throughput of a game endpoint as a ratio to a bare `Bun.serve` in the
 * same run (so the figure means the same on any machine), and a cold stampede of identical requests
 * counting how many reach the provider (single-flight should make it one per route).
 *
 * Run alone with `bun bench/game.ts`; `runGameBench()` returns the rows for a combined table.
 */

export interface BenchRow {
  bench: string;
  metric: string;
  value: number;
  unit: string;
  note?: string;
}

export interface GameBenchOptions {
  /** Length of each throughput phase. */
  durationMs?: number;
  /** Requests in flight during the throughput phases. */
  concurrency?: number;
  /** Identical requests fired at once at a cold cache. */
  stampede?: number;
  /** Simulated provider latency during the stampede, so every request arrives before the answer. */
  upstreamLatencyMs?: number;
}

interface Load {
  rps: number;
  ok: number;
  failed: number;
}

/** The header the bench's cuebot reads the client address from (a viewer base spread over many addresses). */
const CLIENT_ADDRESS_HEADER = "x-bench-client-ip";

/** 65,536 viewer addresses: more than the per-IP limiter holds, so every request pays its real cost. */
function viewerAddress(n: number): string {
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

/**
 * Keeps `concurrency` requests in flight for `durationMs` and counts the answers. Requests come from
 * many addresses, as a channel's viewers would, so the anonymous per-IP limit runs on every request
 * without refusing the benchmark itself.
 */
async function load(url: string, durationMs: number, concurrency: number): Promise<Load> {
  const deadline = performance.now() + durationMs;
  let ok = 0;
  let failed = 0;
  let sent = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      const res = await fetch(url, { headers: { [CLIENT_ADDRESS_HEADER]: viewerAddress(sent++ % 65_536) } });
      await res.arrayBuffer();
      if (res.status === 200) ok++;
      else failed++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - started) / 1000;
  return { rps: (ok + failed) / elapsed, ok, failed };
}

interface Cuebot {
  ctx: Context;
  app: ReturnType<typeof createApp>;
  url: string;
  stop(): Promise<void>;
}

/** A real cuebot app on loopback, pointed at the simulator, with a fresh data folder and quiet logs. */
function startCuebot(sim: GameSimulator): Cuebot {
  const dataDir = mkdtempSync(join(tmpdir(), "cuebot-bench-"));
  prepareDataDir(dataDir);
  const config = loadConfig({ dataDir, env: {} });
  config.game.apiUrl = sim.url;
  config.game.apiKey = sim.apiKey;
  const ctx = createContext(config, {
    log: createLogger({ level: "error", format: "json", write: () => {} }),
    testClientAddressHeader: CLIENT_ADDRESS_HEADER,
  });
  const app = createApp(ctx);
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => app.handle(request) });
  return {
    ctx,
    app,
    url: `http://127.0.0.1:${server.port}`,
    async stop() {
      await server.stop(true);
      ctx.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function runGameBench(options: GameBenchOptions = {}): Promise<BenchRow[]> {
  const durationMs = options.durationMs ?? 3_000;
  const concurrency = options.concurrency ?? 32;
  const stampede = options.stampede ?? 1_000;
  const rows: BenchRow[] = [];
  const sim = startGameSimulator({ rateLimitPerMinute: 1_000_000 });
  try {
    const bare = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () => Response.json({ status: 200, data: { ok: true } }),
    });
    const baseline = await load(`http://127.0.0.1:${bare.port}/`, durationMs, concurrency);
    await bare.stop(true);

    const warm = startCuebot(sim);
    const path = "/api/game/rank/eu/Kestrel/EUW?type=3";
    try {
      const first = await fetch(`${warm.url}${path}`);
      if (first.status !== 200) throw new Error(`warm-up answered ${first.status}: ${await first.text()}`);
      const stack = await load(`${warm.url}/healthz`, durationMs, concurrency);
      sim.resetCalls();
      const hits = await load(`${warm.url}${path}`, durationMs, concurrency);
      rows.push(
        { bench: "game", metric: "bare Bun.serve", value: Math.round(baseline.rps), unit: "req/s" },
        {
          bench: "game",
          metric: "cuebot /healthz",
          value: Math.round(stack.rps),
          unit: "req/s",
          note: "the shared request stack alone",
        },
        {
          bench: "game",
          metric: "rank, cache hit",
          value: Math.round(hits.rps),
          unit: "req/s",
          note: `${hits.failed} non-200, ${sim.totalCalls()} upstream calls`,
        },
        {
          bench: "game",
          metric: "cache hit / bare",
          value: Math.round((hits.rps / baseline.rps) * 100) / 100,
          unit: "ratio",
          note: `${concurrency} in flight, ${durationMs / 1000} s each`,
        },
      );
    } finally {
      await warm.stop();
    }

    const cold = startCuebot(sim);
    try {
      sim.resetCalls();
      sim.knobs.latencyMs = options.upstreamLatencyMs ?? 100;
      const started = performance.now();
      let viewer = 0;
      // In-process requests: a thousand loopback fetches from this same process would fill Bun's
      // client connection pool and starve cuebot's own upstream call, which real clients cannot do.
      const answers = await Promise.all(
        Array.from({ length: stampede }, async () => {
          const res = await cold.app.handle(
            new Request("http://localhost/api/game/stats/eu/Kestrel/EUW", {
              headers: { [CLIENT_ADDRESS_HEADER]: viewerAddress(viewer++) },
            }),
          );
          await res.arrayBuffer();
          return res.status;
        }),
      );
      const elapsed = performance.now() - started;
      const ok = answers.filter((s) => s === 200).length;
      rows.push(
        {
          bench: "game",
          metric: `cold stampede, ${stampede} identical`,
          value: sim.totalCalls(),
          unit: "upstream calls",
          note: `account ${sim.calls.account}, matches ${sim.calls.matches}; ${ok}/${stampede} ok`,
        },
        { bench: "game", metric: "cold stampede wall time", value: Math.round(elapsed), unit: "ms" },
      );
    } finally {
      sim.knobs.latencyMs = 0;
      await cold.stop();
    }
  } finally {
    await sim.stop();
  }
  return rows;
}

/** The game rows in the shared table shape. */
export function gameTableRows(rows: readonly BenchRow[]): TableRow[] {
  return rows.map((r) => ({
    bench: "game",
    measure: `${r.bench}: ${r.metric}`,
    value: `${r.value} ${r.unit}`.trim(),
    note: r.note ?? "",
  }));
}

if (import.meta.main) {
  console.log(formatTable(gameTableRows(await runGameBench())));
}
