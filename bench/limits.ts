/**
 * Cost of the limiters, alone and in the request path, and their memory under an address flood.
 * `bun bench/limits.ts` prints a table; `runLimitsBench()` returns the rows for a combined report.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../server/app.ts";
import type { Clock } from "../server/core/clock.ts";
import { loadConfig } from "../server/core/config.ts";
import { prepareDataDir } from "../server/core/data-dir.ts";
import { createLogger } from "../server/core/log.ts";
import { IpQuotas } from "../server/limits/ip-quotas.ts";
import { SlidingCounter } from "../server/limits/sliding-counter.ts";
import { SlidingLog } from "../server/limits/sliding-log.ts";
import { createContext } from "../server/runtime.ts";
import { formatTable, type TableRow } from "./table.ts";

export interface BenchRow {
  measure: string;
  value: string;
  note: string;
}

/** A clock that moves 1 ms per reading, so windows slide during a run as they would in service. */
function tickingClock(): Clock {
  let now = Date.UTC(2026, 0, 1);
  return { now: () => now++ };
}

function nsPerOp(ops: number, run: (i: number) => void): number {
  for (let i = 0; i < Math.min(ops, 100_000); i++) run(i); // warm-up
  const started = Bun.nanoseconds();
  for (let i = 0; i < ops; i++) run(i);
  return (Bun.nanoseconds() - started) / ops;
}

function ipv4(i: number): string {
  const n = (0x0b000000 + i) >>> 0;
  return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

function slidingLogCost(): BenchRow {
  const log = new SlidingLog<number>({ windowMs: 60_000, clock: tickingClock() });
  const ns = nsPerOp(2_000_000, (i) => log.check(i % 1_000, 120));
  return { measure: "sliding log check", value: `${ns.toFixed(0)} ns/op`, note: "1,000 accounts, limit 120" };
}

function slidingCounterCost(): BenchRow {
  const counter = new SlidingCounter({
    limit: 100,
    windowMs: 60_000,
    clock: tickingClock(),
    maxKeys: 65_536,
  });
  const keys = Array.from({ length: 10_000 }, (_, i) => ipv4(i));
  const ns = nsPerOp(2_000_000, (i) => counter.check(keys[i % keys.length]!));
  return {
    measure: "sliding counter check",
    value: `${ns.toFixed(0)} ns/op`,
    note: "10,000 addresses, limit 100",
  };
}

function perIpCost(family: "IPv4" | "IPv6"): BenchRow {
  const quotas = new IpQuotas({ clock: tickingClock() });
  const keys = Array.from({ length: 10_000 }, (_, i) =>
    family === "IPv4" ? ipv4(i) : `2001:db8:${i.toString(16)}:1::${(i % 7).toString(16)}`,
  );
  const ns = nsPerOp(1_000_000, (i) => quotas.check("anonymous", keys[i % keys.length]!));
  return {
    measure: `per-IP check, ${family}`,
    value: `${ns.toFixed(0)} ns/op`,
    note: family === "IPv4" ? "key = address, no parsing" : "parsed, keyed by /64",
  };
}

const rssMb = () => process.memoryUsage().rss / 1024 / 1024;

function floodMemory(): BenchRow[] {
  Bun.gc(true);
  const idle = rssMb();
  const quotas = new IpQuotas({ clock: tickingClock() });
  const distinct = 1_000_000;
  for (let i = 0; i < distinct; i++) {
    const ip = ipv4(i);
    quotas.check("anonymous", ip);
    quotas.check("publicPages", ip);
    quotas.check("auth", ip);
    quotas.failedAuth.record(ip);
  }
  Bun.gc(true);
  const growth = rssMb() - idle;
  const held = quotas.keyCount("anonymous");
  return [
    {
      measure: "RSS growth after 1,000,000 distinct addresses",
      value: `${growth.toFixed(1)} MB`,
      note: `each through all 4 per-IP limits; budget < 150 MB (${growth < 150 ? "ok" : "OVER"})`,
    },
    { measure: "addresses held per limit", value: String(held), note: "LRU max; older ones evicted" },
  ];
}

/** Requests per second with `concurrency` keep-alive fetch loops sharing `total` requests. */
async function throughput(total: number, concurrency: number, request: (i: number) => Promise<Response>) {
  let next = 0;
  let failures = 0;
  const worker = async () => {
    while (next < total) {
      const res = await request(next++);
      if (res.status !== 200) failures++;
      await res.arrayBuffer();
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { perSecond: total / ((performance.now() - started) / 1000), failures };
}

async function httpCost(): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(join(tmpdir(), "cuebot-bench-"));
  prepareDataDir(dataDir);
  const config = loadConfig({ dataDir, env: {} });
  // Behind a "proxy" so each request can come from its own client address, as real traffic does.
  config.trustProxy = true;
  const ctx = createContext(config, {
    log: createLogger({ level: "error", format: "json", write: () => {} }),
  });
  const body = { status: 200, data: { ok: true } };
  const app = createApp(ctx).get("/api/bench", () => body);
  app.listen({ hostname: "127.0.0.1", port: 0 });
  const bare = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => Response.json(body) });
  try {
    const appUrl = `http://127.0.0.1:${app.server!.port}/api/bench`;
    const bareUrl = `http://127.0.0.1:${bare.port}/api/bench`;
    const total = 20_000;
    const concurrency = 32;
    // 2,000 client addresses × at most 10 requests each: all admitted, every one counted.
    const clientHeaders = Array.from({ length: 2_000 }, (_, i) => ({ "x-forwarded-for": ipv4(i) }));
    const viaApp = (i: number) => fetch(appUrl, { headers: clientHeaders[i % clientHeaders.length]! });
    const viaBare = (i: number) => fetch(bareUrl, { headers: clientHeaders[i % clientHeaders.length]! });
    await throughput(2_000, concurrency, viaBare); // warm-up of both (adds 1 request per address)
    await throughput(2_000, concurrency, viaApp);
    const bareRun = await throughput(total, concurrency, viaBare);
    const appRun = await throughput(total, concurrency, viaApp);
    // Same route and app, but a credential is present, so the per-IP limit is skipped: the difference
    // to the row above is what the limit costs in the request path.
    const skipHeaders = { "x-api-key": "bench" };
    const unlimitedRun = await throughput(total, concurrency, () => fetch(appUrl, { headers: skipHeaders }));
    const ratio = appRun.perSecond / bareRun.perSecond;
    // The refused path: one address far past its limit.
    const refusedRun = await throughput(5_000, concurrency, () =>
      fetch(appUrl, { headers: { "x-forwarded-for": "198.51.100.1" } }),
    );
    return [
      {
        measure: "bare Bun.serve",
        value: `${bareRun.perSecond.toFixed(0)} req/s`,
        note: "same JSON, loopback",
      },
      {
        measure: "app, per-IP limited request",
        value: `${appRun.perSecond.toFixed(0)} req/s`,
        note: `${appRun.failures} non-200 of ${total}; ${concurrency} keep-alive clients`,
      },
      { measure: "app / bare", value: ratio.toFixed(2), note: "whole app (headers, errors, log, limits)" },
      {
        measure: "app, same route, per-IP limit skipped",
        value: `${unlimitedRun.perSecond.toFixed(0)} req/s`,
        note:
          "a credential is present; limited / skipped = " +
          (appRun.perSecond / unlimitedRun.perSecond).toFixed(2),
      },
      {
        measure: "app, refused (429) request",
        value: `${refusedRun.perSecond.toFixed(0)} req/s`,
        note: "one address past its limit",
      },
    ];
  } finally {
    await app.stop(true);
    bare.stop(true);
    await ctx.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function runLimitsBench(): Promise<BenchRow[]> {
  // Memory first, before HTTP buffers and JIT-compiled app code blur the baseline.
  const memory = floodMemory();
  return [
    slidingLogCost(),
    slidingCounterCost(),
    perIpCost("IPv4"),
    perIpCost("IPv6"),
    ...memory,
    ...(await httpCost()),
  ];
}

/** The limit rows in the shared table shape. */
export function limitsTableRows(rows: readonly BenchRow[]): TableRow[] {
  return rows.map((r) => ({ bench: "limits", measure: r.measure, value: r.value, note: r.note }));
}

if (import.meta.main) {
  const started = performance.now();
  const rows = await runLimitsBench();
  console.log(formatTable(limitsTableRows(rows)));
  console.log(`\n(${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
