/**
 * The Redis round trip of one limiter check (server/limits/redis): median and p99 of sequential
 * checks on loopback, the throughput with many in flight, and Redis's own CPU per call. The figure a
 * multi-instance cuebot adds to every limited request. `bun bench/redis-limiter.ts` prints a table;
 * it uses CUEBOT_REDIS_URL when set, else starts a throw-away redis-server (tests/helpers/engines.ts).
 */

import { redactUrl } from "../server/core/store-urls.ts";
import { connectRedis, type RedisClient } from "../server/redis/client.ts";
import { RedisSlidingCounter } from "../server/redis/limits/sliding-counter.ts";
import { RedisSlidingLog } from "../server/redis/limits/sliding-log.ts";
import { type RedisServer, startRedis } from "../tests/helpers/engines.ts";
import { formatTable, type TableRow } from "./table.ts";

const SEQUENTIAL = 10_000;
const WARM_UP = 500;
const IN_FLIGHT = 64;
const CONCURRENT_TOTAL = 50_000;
const TIMEOUT_MS = 1000;

function quantile(sortedUs: number[], q: number): number {
  return sortedUs[Math.min(sortedUs.length - 1, Math.floor(q * sortedUs.length))]!;
}

/** Median, p99 and mean of `n` awaited calls, in µs. */
async function latency(n: number, call: (i: number) => Promise<unknown>) {
  for (let i = 0; i < WARM_UP; i++) await call(i);
  const samples = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const started = Bun.nanoseconds();
    await call(i);
    samples[i] = (Bun.nanoseconds() - started) / 1000;
  }
  const mean = samples.reduce((a, b) => a + b, 0) / n;
  samples.sort((a, b) => a - b);
  return { p50: quantile(samples, 0.5), p99: quantile(samples, 0.99), mean };
}

/** Calls per second with `IN_FLIGHT` calls outstanding at all times. */
async function throughput(call: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < CONCURRENT_TOTAL) await call(next++);
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return CONCURRENT_TOTAL / ((performance.now() - started) / 1000);
}

/** Redis's own µs per call of a command, from INFO commandstats. */
async function serverUsPerCall(client: RedisClient, command: string): Promise<number | null> {
  const info = await client.info("commandstats");
  const match = new RegExp(`cmdstat_${command}:calls=\\d+,usec=\\d+,usec_per_call=([\\d.]+)`).exec(info);
  return match ? Number(match[1]) : null;
}

const ipv4 = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

export async function runRedisLimiterBench(): Promise<TableRow[]> {
  let server: RedisServer | null = null;
  let url = process.env.CUEBOT_REDIS_URL;
  if (!url) {
    server = await startRedis();
    url = server.url;
  }
  const client = await connectRedis(url, { onError: (error) => console.error(`redis: ${error.message}`) });
  try {
    await client.configResetStat();
    const prefix = `bench:${process.pid}:`;
    const log = new RedisSlidingLog<number>({
      client,
      windowMs: 60_000,
      prefix: `${prefix}log:`,
      timeoutMs: TIMEOUT_MS,
    });
    const counter = new RedisSlidingCounter({
      client,
      limit: 100,
      windowMs: 60_000,
      prefix: `${prefix}ip:`,
      timeoutMs: TIMEOUT_MS,
    });
    const note = (what: string) => `${what}; ${SEQUENTIAL.toLocaleString("en")} sequential calls`;
    const fmt = (r: { p50: number; p99: number; mean: number }) =>
      `${r.p50.toFixed(0)} / ${r.p99.toFixed(0)} µs`;

    const ping = await latency(SEQUENTIAL, () => client.ping());
    // 2,000 accounts under a 120/min quota: every check admitted and logged, as in normal service.
    const admitted = await latency(SEQUENTIAL, (i) => log.check(i % 2000, 120));
    // One account over its quota: every check refused (the 429 path).
    for (let i = 0; i < 120; i++) await log.check(-1, 120);
    const refused = await latency(SEQUENTIAL, () => log.check(-1, 120));
    const perIp = await latency(SEQUENTIAL, (i) => counter.check(ipv4(i % 5000)));
    const parallel = await throughput((i) => log.check(10_000 + (i % 2000), 1_000_000));
    const evalshaUs = await serverUsPerCall(client, "evalsha");

    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) {
      if (keys.length > 0) await client.del(keys);
    }
    const where = server ? "throw-away redis-server, loopback" : redactUrl(url);
    return [
      {
        bench: "redis",
        measure: "PING p50 / p99",
        value: fmt(ping),
        note: note(`baseline round trip (${where})`),
      },
      {
        bench: "redis",
        measure: "account quota check, admitted p50 / p99",
        value: fmt(admitted),
        note: note("sliding log, 2,000 keys"),
      },
      {
        bench: "redis",
        measure: "account quota check, refused p50 / p99",
        value: fmt(refused),
        note: note("sliding log, key at its limit"),
      },
      {
        bench: "redis",
        measure: "per-IP check p50 / p99",
        value: fmt(perIp),
        note: note("sliding counter, 5,000 addresses"),
      },
      {
        bench: "redis",
        measure: "account quota checks, 64 in flight",
        value: `${Math.round(parallel).toLocaleString("en")}/s`,
        note: `one connection, ${CONCURRENT_TOTAL.toLocaleString("en")} checks`,
      },
      {
        bench: "redis",
        measure: "Redis CPU per check",
        value: evalshaUs === null ? "n/a" : `${evalshaUs.toFixed(1)} µs`,
        note: "INFO commandstats, EVALSHA usec_per_call over all checks above",
      },
    ];
  } finally {
    await client.close();
    await server?.stop();
  }
}

if (import.meta.main) {
  const rows = await runRedisLimiterBench();
  console.log(formatTable(rows));
  console.log(
    `\n(bun ${Bun.version}, ${navigator.hardwareConcurrency} cores; the machine is shared, so treat figures as ratios)`,
  );
}
