import { readdirSync, readFileSync } from "node:fs";
import { createFixture, startBare, startBinary } from "./fixture.ts";
import { HOT_ROWS, type HotRow, prepareRow, streamersFor } from "./rows.ts";
import { parseWrk } from "./wrk.ts";

/**
 * Where the CPU goes under one row's load, by process and thread: `bun bench/cpu-split.ts
 * refused|game|bot|healthz [seconds]` drives the built binary with wrk three times (the first run
 * includes the JIT's warm-up), then the bare yardstick, and prints for each the server's CPU time per
 * request split by thread (event loop, database worker, JIT and GC helpers) and wrk's own. On this 2-core machine wrk and the server share the cores, so a
 * thread of the server that burns CPU slows the load generator too. Build first (`npm run build`).
 */

const row = (process.argv[2] ?? "bot") as HotRow;
/** 3 runs × 2 s of the bot row stay under its keys' quota (6,000 keys × 120 a minute), as in run.ts. */
const seconds = Number(process.argv[3] ?? 2);
if (!HOT_ROWS.includes(row)) throw new Error(`usage: bench/cpu-split.ts ${HOT_ROWS.join("|")} [s]`);
const CLOCK_TICKS_PER_S = 100;

/** CPU seconds (user + system) of each thread of `pid`, by "name (tid)". */
function threadTimes(pid: number): Map<string, number> {
  const times = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    } catch {
      continue; // the thread ended meanwhile
    }
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    times.set(`${name} (${tid})`, (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_S);
  }
  return times;
}

/** One wrk run against `url`, with the CPU of the server `pid` and of wrk itself per request. */
async function measure(label: string, pid: number, url: string, script?: string): Promise<void> {
  const args = ["wrk", "-t1", "-c64", `-d${seconds}s`, "--latency"];
  let scriptFile: string | undefined;
  if (script) {
    scriptFile = `/tmp/cuebot-cpu-split-${process.pid}.lua`;
    await Bun.write(scriptFile, script);
    args.push("-s", scriptFile);
  }
  const before = threadTimes(pid);
  const proc = Bun.spawn([...args, url], { stdout: "pipe" });
  // wrk's own CPU, read just before it exits (its threads are gone after).
  let wrkSeconds = 0;
  const sampler = setInterval(() => {
    try {
      const fields = readFileSync(`/proc/${proc.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      wrkSeconds = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_S;
    } catch {
      // exited
    }
  }, 50);
  const output = await new Response(proc.stdout).text();
  await proc.exited;
  clearInterval(sampler);
  const after = threadTimes(pid);
  const { rps, non2xx } = parseWrk(output);
  const requests = rps * seconds;
  const perRequest = (cpuSeconds: number) => ((cpuSeconds * 1e6) / requests).toFixed(2);
  let total = 0;
  const threads: string[] = [];
  for (const [name, time] of after) {
    const used = time - (before.get(name) ?? 0);
    total += used;
    if (used * 1e6 >= requests * 0.05) threads.push(`${name} ${perRequest(used)}`);
  }
  console.log(
    `${label}: ${Math.round(rps)} req/s${non2xx > 0 ? ` (${non2xx} not 2xx)` : ""}; server ${perRequest(total)} µs CPU per request (${threads.join(", ")}); wrk ${perRequest(wrkSeconds)} µs`,
  );
}

const fixture = await createFixture(streamersFor(row));
try {
  const server = await startBinary(fixture, { settled: true });
  try {
    const { url, script } = await prepareRow(row, fixture, server.url);
    // Twice: the first run includes the JIT's warm-up, the second shows the steady state.
    await measure(`dist/cuebot ${row}, first run`, server.pid, url, script);
    await measure(`dist/cuebot ${row}, second run`, server.pid, url, script);
    await measure(`dist/cuebot ${row}, third run`, server.pid, url, script);
  } finally {
    await server.stop();
  }
  const bare = await startBare();
  try {
    await measure("bare Bun.serve", bare.pid, `${bare.url}/`);
  } finally {
    await bare.stop();
  }
} finally {
  await fixture.stop();
}
