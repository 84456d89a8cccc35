import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { FloorSetup } from "./chat-floor.ts";
import { addChatters, type LoadResult, loadRates, restCpuPercent, type Typists } from "./chat-load.ts";
import { BINARY, CHAT_SCOPES, createFixture, type Fixture, firstLine, ROOT, startBinary } from "./fixture.ts";
import { printProfile, profiler } from "./profile-report.ts";
import type { TableRow } from "./table.ts";

/**
 * Native chat at scale (issue 26 §1), black box: N streamers with chat on, each read on its own
 * EventSub socket (a user token per socket, as Twitch requires), `!magic8` typed into their chats at a
 * steady rate (bench/chat-load.ts). Then the floor (issue 34): bench/chat-floor.ts, a bare Bun script
 * doing only the socket work of a command, in a process of its own, on the same simulators, channels
 * and rates, measured the same way; cuebot's CPU per command is shown as a ratio to the floor's.
 * The simulators run in this process, on the same cores as the server.
 * `bun bench/chat-scale.ts [--channels 1000] [--rates 200,500,1000] [--seconds 10] [--binary PATH]
 * [--before PATH] [--floor-client keep-alive|fetch] [--profile]`; `--before` measures that build
 * too, on a data folder of its own, in the same run.
 */

export const CHAT_TARGETS = {
  connectS: 60,
  restRssMb: 250,
  restCpuPercent: 2,
  p99Ms: 50,
  cpuPerCommandUs: 150,
  /** cuebot's CPU per command at most this many times the floor's, at `floorRatioFromRate` and above. */
  floorRatio: 1.5,
  floorRatioFromRate: 500,
} as const;

/** Seconds of the at-rest CPU sample; `CHAT_REST_S` shortens it while trying a change (the bench uses 20). */
const REST_SAMPLE_S = Number(process.env.CHAT_REST_S ?? 20);
/** The quiet spell before that sample (cuebot validates its stored tokens after start). */
const QUIET_S = 10;

const ok = (pass: boolean) => (pass ? "met" : "MISSED");

/** Resolves once every channel's `channel.chat.message` subscription is enabled; the seconds it took. */
async function waitSubscribed(fixture: Fixture, channels: number, startedAt: number): Promise<number> {
  const deadline = startedAt + 300_000;
  for (;;) {
    const enabled = fixture.twitch.chat
      .subscriptions()
      .filter((s) => s.type === "channel.chat.message" && s.status === "enabled").length;
    if (enabled >= channels) return (performance.now() - startedAt) / 1000;
    if (performance.now() > deadline) throw new Error(`only ${enabled} of ${channels} channels subscribed`);
    await Bun.sleep(100);
  }
}

export interface ChatScaleOptions {
  channels: number;
  rates: readonly number[];
  seconds: number;
  /** Extra environment for the server under test (e.g. BUN_OPTIONS for Bun's CPU profiler). */
  env?: Record<string, string>;
  /** Extra environment for the floor's process (the same, to profile it beside cuebot). */
  floorEnv?: Record<string, string>;
  /** Another build measured the same way in the same run, before the one under test (`--before`). */
  before?: string;
  /** The floor's HTTP client (bench/chat-floor.ts): cuebot's keep-alive-fetch, or Bun's fetch. */
  floorClient?: FloorSetup["client"];
}

/** What one process answering the chats measured: CPU at rest, then each rate. */
interface ProcessRun {
  restCpuPercent: number;
  loads: LoadResult[];
}

interface CuebotRun extends ProcessRun {
  connectS: number;
  rssMb: number;
}

/** cuebot's binary on the fixture: connected, at rest, then under load; stopped after. */
async function runCuebot(
  typists: Typists,
  options: ChatScaleOptions,
  binary: string,
  env: Record<string, string> = {},
): Promise<CuebotRun> {
  const { fixture } = typists;
  const startedAt = performance.now();
  const server = await startBinary({ dataDir: fixture.dataDir, env: { ...fixture.env, ...env } }, { binary });
  try {
    const connectS = await waitSubscribed(fixture, options.channels, startedAt);
    await Bun.sleep(QUIET_S * 1000);
    const restCpu = await restCpuPercent(server.pid, REST_SAMPLE_S);
    const rssMb = server.rssMb();
    const loads = await loadRates(typists, server.pid, options.rates, options.seconds);
    return { connectS, rssMb, restCpuPercent: restCpu, loads };
  } finally {
    await server.stop();
  }
}

/** The floor (bench/chat-floor.ts) in a process of its own, on the channels cuebot had; resolves once subscribed. */
async function startFloor(
  fixture: Fixture,
  client: FloorSetup["client"],
  env: Record<string, string> = {},
): Promise<{ pid: number; stop(): Promise<void> }> {
  const setup: FloorSetup = {
    eventsubUrl: fixture.twitch.eventsubUrl,
    helixUrl: fixture.twitch.helixUrl,
    clientId: fixture.twitch.client.id,
    channels: fixture.streamers.map(({ login }) => ({
      userId: fixture.twitch.findUser(login)!.id,
      token: fixture.twitch.issueUserToken(login, CHAT_SCOPES).accessToken,
    })),
    client,
  };
  const file = join(fixture.dataDir, "chat-floor.json");
  writeFileSync(file, JSON.stringify(setup));
  const proc = Bun.spawn([process.execPath, join(ROOT, "bench", "chat-floor.ts"), file], {
    env: { ...process.env, ...env },
    stdout: "pipe",
    stderr: "inherit",
  });
  const said = await firstLine(proc.stdout, "the chat floor exited before it was ready").catch(
    (error: Error) => error.message,
  );
  if (said !== "ready") {
    proc.kill("SIGTERM");
    throw new Error(`the chat floor did not start: ${said}`);
  }
  return {
    pid: proc.pid,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

/** The floor on the fixture, after cuebot left it: at rest, then under the same load. */
async function runFloor(typists: Typists, options: ChatScaleOptions): Promise<ProcessRun> {
  const floor = await startFloor(typists.fixture, options.floorClient ?? "keep-alive", options.floorEnv);
  try {
    await Bun.sleep(QUIET_S * 1000);
    const restCpu = await restCpuPercent(floor.pid, REST_SAMPLE_S);
    const loads = await loadRates(
      { ...typists, turn: { next: 0 } },
      floor.pid,
      options.rates,
      options.seconds,
    );
    return { restCpuPercent: restCpu, loads };
  } finally {
    await floor.stop();
  }
}

/** A fixture of `channels` streamers with chat on, and its chatters, for `use`; stopped after. */
async function withChatFixture<T>(channels: number, use: (typists: Typists) => Promise<T>): Promise<T> {
  const fixture = await createFixture(channels, { chat: true });
  try {
    return await use({ fixture, chatters: addChatters(fixture), turn: { next: 0 } });
  } finally {
    await fixture.stop();
  }
}

type AddRow = (measure: string, value: string, note: string) => void;

const loadNote = (who: string, load: LoadResult) =>
  `p50 ${load.p50Ms.toFixed(1)} ms; ${load.answered}/${load.sent} answered; ${who} ${load.cpuPercent.toFixed(0)} % of a core, ${Math.round(load.cpuUsPerCommand)} µs a command`;

function cuebotRows(row: AddRow, run: CuebotRun, floor: ProcessRun, channels: number): void {
  row(
    "channels turned on and subscribed (exec serve → last subscription)",
    `${run.connectS.toFixed(1)} s`,
    `target ≤ ${CHAT_TARGETS.connectS} s ${ok(run.connectS <= CHAT_TARGETS.connectS)}`,
  );
  row(
    "RSS at rest, all connected",
    `${Math.round(run.rssMb)} MB`,
    `${((run.rssMb * 1024) / channels).toFixed(0)} kB a channel; target ≤ ${CHAT_TARGETS.restRssMb} MB ${ok(run.rssMb <= CHAT_TARGETS.restRssMb)}`,
  );
  const rest = run.restCpuPercent;
  row(
    "CPU at rest, all connected",
    `${rest.toFixed(2)} %`,
    `of one core over ${REST_SAMPLE_S} s (the floor ${floor.restCpuPercent.toFixed(2)} %); target ≤ ${CHAT_TARGETS.restCpuPercent} % ${ok(rest <= CHAT_TARGETS.restCpuPercent)}`,
  );
  latencyRows(row, run.loads);
  const worst = Math.max(...run.loads.map((load) => load.cpuUsPerCommand));
  row(
    "cuebot CPU per answered command (worst rate above)",
    `${Math.round(worst)} µs`,
    `target ≤ ${CHAT_TARGETS.cpuPerCommandUs} µs ${ok(worst <= CHAT_TARGETS.cpuPerCommandUs)}`,
  );
  floorRatioRows(row, run, floor);
}

/** Each rate's reply latency and CPU; 1,000 a second and above with the p99 target. */
function latencyRows(row: AddRow, loads: readonly LoadResult[]): void {
  for (const load of loads) {
    const lost = load.sent - load.answered;
    const target =
      load.rate >= 1000
        ? `; target p99 ≤ ${CHAT_TARGETS.p99Ms} ms ${ok(load.p99Ms <= CHAT_TARGETS.p99Ms && lost === 0)}`
        : "";
    row(
      `reply latency at ${load.rate} commands a second`,
      `p99 ${load.p99Ms.toFixed(1)} ms`,
      loadNote("cuebot", load) + target,
    );
  }
}

/** cuebot's CPU per command as a ratio to the floor's at each rate; replies lost make it a miss. */
function floorRatioRows(row: AddRow, run: ProcessRun, floor: ProcessRun): void {
  run.loads.forEach((load, i) => {
    const floorLoad = floor.loads[i]!;
    const ratio = load.cpuUsPerCommand / floorLoad.cpuUsPerCommand;
    const lost = [
      ...(load.answered < load.sent ? [`cuebot answered ${load.answered}/${load.sent}`] : []),
      ...(floorLoad.answered < floorLoad.sent ? [`the floor ${floorLoad.answered}/${floorLoad.sent}`] : []),
    ];
    const met = ratio <= CHAT_TARGETS.floorRatio && load.answered === load.sent;
    const target =
      load.rate >= CHAT_TARGETS.floorRatioFromRate
        ? `target ≤ ${CHAT_TARGETS.floorRatio}× ${ok(met)}`
        : "no target";
    row(
      `cuebot CPU per command ÷ the floor's, at ${load.rate} a second`,
      `${ratio.toFixed(2)}×`,
      `${Math.round(load.cpuUsPerCommand)} µs against ${Math.round(floorLoad.cpuUsPerCommand)} µs; ${[...lost, target].join("; ")}`,
    );
  });
}

const FLOOR_CLIENTS: Record<NonNullable<FloorSetup["client"]>, string> = {
  "keep-alive": "cuebot's keep-alive-fetch",
  fetch: "Bun's fetch",
};

function floorRows(row: AddRow, floor: ProcessRun, client: NonNullable<FloorSetup["client"]>): void {
  row(
    "floor: a bare Bun script doing only a command's socket work, at rest",
    `${floor.restCpuPercent.toFixed(2)} %`,
    `bench/chat-floor.ts: notification in, Send Chat Message kept alive (${FLOOR_CLIENTS[client]}), echo in; of one core over ${REST_SAMPLE_S} s; reference, no target`,
  );
  for (const load of floor.loads) {
    row(
      `  the floor at ${load.rate} commands a second`,
      `p99 ${load.p99Ms.toFixed(1)} ms`,
      loadNote("floor", load),
    );
  }
}

/**
 * The chat rows of the bench table (each with its target), for `npm run bench` and standalone runs:
 * the build under test (BINARY), the floor measured after it on the same simulators, and with
 * `before` that build first, on a fixture of its own, both as ratios to the same floor.
 */
export async function chatScaleRows(options: ChatScaleOptions): Promise<TableRow[]> {
  const { channels, before } = options;
  const beforeRun = before
    ? await withChatFixture(channels, (typists) => runCuebot(typists, options, before))
    : null;
  const { run, floor } = await withChatFixture(channels, async (typists) => ({
    run: await runCuebot(typists, options, BINARY, options.env),
    floor: await runFloor(typists, options),
  }));
  const rows: TableRow[] = [];
  const adder =
    (bench: string): AddRow =>
    (measure, value, note) =>
      rows.push({ bench, measure, value, note });
  const bench = `chat, ${channels} channels`;
  if (beforeRun) cuebotRows(adder(`${bench}, --before`), beforeRun, floor, channels);
  cuebotRows(adder(bench), run, floor, channels);
  floorRows(adder(bench), floor, options.floorClient ?? "keep-alive");
  return rows;
}

function flag(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : process.argv[at + 1]!;
}

/**
 * `--profile`: the server under test (not `--before`'s) and the floor run with Bun's CPU profiler;
 * where each one's time went is printed after the table.
 */
async function main(): Promise<void> {
  const { formatTable } = await import("./table.ts");
  const profiles = process.argv.includes("--profile") ? { cuebot: profiler(), floor: profiler() } : null;
  const rows = await chatScaleRows({
    channels: Number(flag("--channels", "1000")),
    rates: flag("--rates", "200,500,1000").split(",").map(Number),
    seconds: Number(flag("--seconds", "10")),
    before: process.argv.includes("--before") ? resolve(flag("--before", "")) : undefined,
    floorClient: flag("--floor-client", "keep-alive") === "fetch" ? "fetch" : "keep-alive",
    env: profiles?.cuebot.env,
    floorEnv: profiles?.floor.env,
  });
  console.log(formatTable(rows));
  if (!profiles) return;
  printProfile("cuebot", profiles.cuebot.dir);
  printProfile("the floor", profiles.floor.dir);
}

if (import.meta.main) await main();
