import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * wrk as the load generator: one thread, 64 connections, on loopback (the method). Requests
 * are produced by a Lua script so each can carry its own client address or API key.
 */

export interface WrkResult {
  rps: number;
  /** 99th percentile latency in ms. */
  p99Ms: number;
  /** Responses that were not 2xx/3xx (wrk's "Non-2xx or 3xx responses"). */
  non2xx: number;
  requests: number;
}

export interface WrkOptions {
  url: string;
  /** Lua source defining `request()` (see the builders below); none = the URL as is. */
  script?: string;
  durationSeconds: number;
  connections?: number;
}

const scriptDir = mkdtempSync(join(tmpdir(), "cuebot-bench-wrk-"));
let scriptCount = 0;

function toMs(value: string, unit: string): number {
  const n = Number(value);
  if (unit === "us") return n / 1000;
  if (unit === "s") return n * 1000;
  if (unit === "m") return n * 60_000;
  return n;
}

export function parseWrk(output: string): WrkResult {
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(output);
  const p99 = /^\s*99%\s+([\d.]+)(us|ms|s|m)\s*$/m.exec(output);
  const requests = /(\d+) requests in/.exec(output);
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(output);
  if (!rps || !p99 || !requests) throw new Error(`unexpected wrk output:\n${output}`);
  return {
    rps: Number(rps[1]),
    p99Ms: toMs(p99[1]!, p99[2]!),
    non2xx: non2xx ? Number(non2xx[1]) : 0,
    requests: Number(requests[1]),
  };
}

export async function wrk(options: WrkOptions): Promise<WrkResult> {
  const args = [
    "wrk",
    "-t1",
    `-c${options.connections ?? 64}`,
    `-d${options.durationSeconds}s`,
    "--latency",
    "--timeout",
    "5s",
  ];
  if (options.script) {
    const file = join(scriptDir, `s${scriptCount++}.lua`);
    writeFileSync(file, options.script);
    args.push("-s", file);
  }
  args.push(options.url);
  const proc = Bun.spawn(args, { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  if (code !== 0) throw new Error(`wrk failed (${code}): ${err}${out}`);
  return parseWrk(out);
}

/** The median run of `runs` by throughput (its p99 goes with it). */
export async function medianOf(runs: number, run: () => Promise<WrkResult>): Promise<WrkResult> {
  const results: WrkResult[] = [];
  for (let i = 0; i < runs; i++) results.push(await run());
  results.sort((a, b) => a.rps - b.rps);
  return results[Math.floor(results.length / 2)]!;
}

/**
 * Every request from its own client address (X-Forwarded-For, read by a server that trusts its
 * loopback peer), counting up from `offset`: 10.0.0.0/8 gives 16,777,216 before it wraps.
 */
export function distinctClientsScript(options: { path?: string; offset?: number } = {}): string {
  return `
local n = ${options.offset ?? 0}
local path = ${options.path === undefined ? "nil" : JSON.stringify(options.path)}
request = function()
  local a = n % 16777216
  n = n + 1
  local ip = string.format("10.%d.%d.%d", math.floor(a / 65536) % 256, math.floor(a / 256) % 256, a % 256)
  return wrk.format(nil, path, { ["X-Forwarded-For"] = ip })
end
`;
}

/** Cycles through `paths` in order (e.g. one per API key, so no key meets its quota). */
export function rotatingPathsScript(paths: readonly string[]): string {
  return `
local paths = { ${paths.map((p) => JSON.stringify(p)).join(",\n")} }
local i = 0
request = function()
  i = i % #paths + 1
  return wrk.format(nil, paths[i])
end
`;
}

/** Cycles through `paths` with a distinct client address for every request. */
export function rotatingPathsDistinctClientsScript(paths: readonly string[], offset = 0): string {
  return `
local paths = { ${paths.map((p) => JSON.stringify(p)).join(",\n")} }
local n = ${offset}
request = function()
  local a = n % 16777216
  n = n + 1
  local ip = string.format("10.%d.%d.%d", math.floor(a / 65536) % 256, math.floor(a / 256) % 256, a % 256)
  return wrk.format(nil, paths[n % #paths + 1], { ["X-Forwarded-For"] = ip })
end
`;
}
