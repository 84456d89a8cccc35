import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../server/app.ts";
import { loadConfig } from "../server/config.ts";
import { type Context, createContext } from "../server/context.ts";
import { prepareDataDir } from "../server/data-dir.ts";
import { type GameSimulator, startGameSimulator } from "../server/game/sim.ts";
import { createLogger } from "../server/log.ts";

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

/** Keeps `concurrency` requests in flight for `durationMs` and counts the answers. */
async function load(url: string, durationMs: number, concurrency: number): Promise<Load> {
  const deadline = performance.now() + durationMs;
  let ok = 0;
  let failed = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      const res = await fetch(url);
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
      // In-process requests: a thousand loopback fetches from this same process would fill Bun's
      // client connection pool and starve cuebot's own upstream call, which real clients cannot do.
      const answers = await Promise.all(
        Array.from({ length: stampede }, async () => {
          const res = await cold.app.handle(new Request("http://localhost/api/game/stats/eu/Kestrel/EUW"));
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

export function formatTable(rows: readonly BenchRow[]): string {
  const header = ["bench", "metric", "value", "unit", "note"];
  const cells = rows.map((r) => [r.bench, r.metric, String(r.value), r.unit, r.note ?? ""]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) =>
    c.map((v, i) => (i === 2 ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join("  ");
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...cells.map(line)].join("\n");
}

if (import.meta.main) {
  console.log(formatTable(await runGameBench()));
}
