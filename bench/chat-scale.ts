import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SimSendAttempt } from "../server/sim/twitch/chat/state.ts";
import { createFixture, type Fixture, type RunningBinary, simUser, startBinary } from "./fixture.ts";
import { type CpuProfile, report } from "./profile-report.ts";
import type { TableRow } from "./table.ts";

/**
 * Native chat at scale (issue 26 §1), black box: N streamers with chat on, each read on its own
 * EventSub socket (a user token per socket, as Twitch requires), `!magic8` typed into their chats at a
 * steady rate, each reply timed from the simulator sending the notification to the simulator receiving
 * `POST /chat/messages`. The simulators run in this process, on the same cores as the server.
 * `bun bench/chat-scale.ts [--channels 1000] [--rates 200,500,1000] [--seconds 10] [--binary PATH]`.
 */

export const CHAT_TARGETS = {
  connectS: 60,
  restRssMb: 250,
  restCpuPercent: 2,
  p99Ms: 50,
  cpuPerCommandUs: 150,
} as const;

/** Distinct chatters per channel: each is answered 3 times per 30 s at most, so they take turns. */
const CHATTERS = 40;
const TEXT = "!magic8 will this bench pass?";
const TICK_MS = 10;
const WARM_UP_S = 10;
/** Seconds of the at-rest CPU sample; `CHAT_REST_S` shortens it while trying a change (the bench uses 20). */
const REST_SAMPLE_S = Number(process.env.CHAT_REST_S ?? 20);

const ok = (pass: boolean) => (pass ? "met" : "MISSED");

/** CPU seconds (user + system, every thread) the process has used so far. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

function addChatters(fixture: Fixture): string[] {
  const logins: string[] = [];
  for (let i = 0; i < CHATTERS; i++) {
    const login = `benchchatter${i}`;
    fixture.twitch.world.users.push(simUser(String(900_000 + i), login, ""));
    logins.push(login);
  }
  return logins;
}

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

export interface LoadResult {
  rate: number;
  sent: number;
  answered: number;
  p50Ms: number;
  p99Ms: number;
  cpuUsPerCommand: number;
  cpuPercent: number;
}

/** `rate` commands a second for `seconds`, spread over the channels in turn; waits 3 s for the last replies. */
export async function chatLoad(
  fixture: Fixture,
  server: RunningBinary & { pid: number },
  chatters: readonly string[],
  rate: number,
  seconds: number,
  turn: { next: number },
): Promise<LoadResult> {
  const logins = fixture.streamers.map((s) => s.login);
  const pending = new Map<string, number>();
  const latencies: number[] = [];
  const stop = fixture.twitch.chat.onSend((attempt: SimSendAttempt) => {
    const sentAt = attempt.replyParentMessageId ? pending.get(attempt.replyParentMessageId) : undefined;
    if (sentAt === undefined) return;
    pending.delete(attempt.replyParentMessageId!);
    latencies.push(performance.now() - sentAt);
  });
  const total = rate * seconds;
  let sent = 0;
  const cpuBefore = cpuSeconds(server.pid);
  const started = performance.now();
  try {
    while (sent < total) {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate));
      for (; sent < due; sent++) {
        const n = turn.next++;
        const channel = logins[n % logins.length]!;
        const user = chatters[Math.floor(n / logins.length) % chatters.length]!;
        const id = fixture.twitch.chat.say({ channel, user, text: TEXT });
        pending.set(id, performance.now());
      }
      await Bun.sleep(TICK_MS);
    }
    const drainUntil = performance.now() + 3_000;
    while (pending.size > 0 && performance.now() < drainUntil) await Bun.sleep(20);
  } finally {
    stop();
  }
  const elapsed = (performance.now() - started) / 1000;
  const cpu = cpuSeconds(server.pid) - cpuBefore;
  latencies.sort((a, b) => a - b);
  return {
    rate,
    sent,
    answered: latencies.length,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    cpuUsPerCommand: latencies.length > 0 ? (cpu * 1e6) / latencies.length : Number.NaN,
    cpuPercent: (cpu / elapsed) * 100,
  };
}

export interface ChatScaleOptions {
  channels: number;
  rates: readonly number[];
  seconds: number;
  /** Extra environment for the server (e.g. BUN_OPTIONS for Bun's CPU profiler). */
  env?: Record<string, string>;
}

/** The chat rows of the bench table (each with its target), for `npm run bench` and standalone runs. */
export async function chatScaleRows(options: ChatScaleOptions): Promise<TableRow[]> {
  const { channels } = options;
  const rows: TableRow[] = [];
  const row = (measure: string, value: string, note: string) =>
    rows.push({ bench: `chat, ${channels} channels`, measure, value, note });
  const fixture = await createFixture(channels, { chat: true });
  const chatters = addChatters(fixture);
  const startedAt = performance.now();
  const server = await startBinary({ dataDir: fixture.dataDir, env: { ...fixture.env, ...options.env } });
  try {
    const connectS = await waitSubscribed(fixture, channels, startedAt);
    row(
      "channels turned on and subscribed (exec serve → last subscription)",
      `${connectS.toFixed(1)} s`,
      `target ≤ ${CHAT_TARGETS.connectS} s ${ok(connectS <= CHAT_TARGETS.connectS)}`,
    );
    // At rest: after the start-up's token validation and a quiet spell.
    await Bun.sleep(10_000);
    const restCpuBefore = cpuSeconds(server.pid);
    await Bun.sleep(REST_SAMPLE_S * 1000);
    const restCpu = ((cpuSeconds(server.pid) - restCpuBefore) / REST_SAMPLE_S) * 100;
    const rss = server.rssMb();
    row(
      "RSS at rest, all connected",
      `${Math.round(rss)} MB`,
      `${((rss * 1024) / channels).toFixed(0)} kB a channel; target ≤ ${CHAT_TARGETS.restRssMb} MB ${ok(rss <= CHAT_TARGETS.restRssMb)}`,
    );
    row(
      "CPU at rest, all connected",
      `${restCpu.toFixed(2)} %`,
      `of one core over ${REST_SAMPLE_S} s; target ≤ ${CHAT_TARGETS.restCpuPercent} % ${ok(restCpu <= CHAT_TARGETS.restCpuPercent)}`,
    );
    const turn = { next: 0 };
    // Warm-up: every channel answers a few times, so caches read at a channel's first command are
    // filled and the JIT has compiled the path (a server runs for hours; its first seconds are not it).
    await chatLoad(fixture, server, chatters, Math.min(500, channels), WARM_UP_S, turn);
    let worstCpu = 0;
    for (const rate of options.rates) {
      const result = await chatLoad(fixture, server, chatters, rate, options.seconds, turn);
      worstCpu = Math.max(worstCpu, result.cpuUsPerCommand);
      const lost = result.sent - result.answered;
      const target =
        rate >= 1000
          ? `; target p99 ≤ ${CHAT_TARGETS.p99Ms} ms ${ok(result.p99Ms <= CHAT_TARGETS.p99Ms && lost === 0)}`
          : "";
      row(
        `reply latency at ${rate} commands a second`,
        `p99 ${result.p99Ms.toFixed(1)} ms`,
        `p50 ${result.p50Ms.toFixed(1)} ms; ${result.answered}/${result.sent} answered; cuebot ${result.cpuPercent.toFixed(0)} % of a core, ${Math.round(result.cpuUsPerCommand)} µs a command${target}`,
      );
    }
    row(
      "cuebot CPU per answered command (worst rate above)",
      `${Math.round(worstCpu)} µs`,
      `target ≤ ${CHAT_TARGETS.cpuPerCommandUs} µs ${ok(worstCpu <= CHAT_TARGETS.cpuPerCommandUs)}`,
    );
  } finally {
    await server.stop();
    await fixture.stop();
  }
  return rows;
}

function flag(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : process.argv[at + 1]!;
}

/** `--profile`: the server runs with Bun's CPU profiler; where its time went is printed after the table. */
async function main(): Promise<void> {
  const { formatTable } = await import("./table.ts");
  const profileDir = process.argv.includes("--profile")
    ? mkdtempSync(join(tmpdir(), "cuebot-profile-"))
    : null;
  const rows = await chatScaleRows({
    channels: Number(flag("--channels", "1000")),
    rates: flag("--rates", "200,500,1000").split(",").map(Number),
    seconds: Number(flag("--seconds", "10")),
    env: profileDir
      ? { BUN_OPTIONS: `--cpu-prof --cpu-prof-interval=100 --cpu-prof-dir=${profileDir}` }
      : undefined,
  });
  console.log(formatTable(rows));
  if (!profileDir) return;
  const file = readdirSync(profileDir).find((name) => name.endsWith(".cpuprofile"));
  if (!file) throw new Error(`no profile was written in ${profileDir}`);
  console.log(`profile: ${join(profileDir, file)}`);
  report(JSON.parse(readFileSync(join(profileDir, file), "utf8")) as CpuProfile);
}

if (import.meta.main) await main();
