import { readFileSync } from "node:fs";
import type { SimSendAttempt } from "../server/sim/twitch/chat/state.ts";
import { type Fixture, simUser } from "./fixture.ts";

/**
 * The load of the chat bench (bench/chat-scale.ts), the same for cuebot and for the floor
 * (bench/chat-floor.ts): `!magic8` typed into the simulated chats at a steady rate, each reply timed
 * from the simulator sending the notification to the simulator receiving `POST /chat/messages`, and
 * the CPU of the process answering (every thread, from /proc) over the load and its drain.
 */

/** Distinct chatters per channel: each is answered 3 times per 30 s at most, so they take turns. */
const CHATTERS = 40;
const TEXT = "!magic8 will this bench pass?";
const TICK_MS = 10;
const WARM_UP_S = 10;
const DRAIN_MS = 3_000;

/** CPU seconds (user + system, every thread) the process has used so far. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The process's CPU over the next `seconds`, in % of one core. */
export async function restCpuPercent(pid: number, seconds: number): Promise<number> {
  const before = cpuSeconds(pid);
  await Bun.sleep(seconds * 1000);
  return ((cpuSeconds(pid) - before) / seconds) * 100;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

/** Adds the chatters to the simulated world; their logins. */
export function addChatters(fixture: Fixture): string[] {
  const logins: string[] = [];
  for (let i = 0; i < CHATTERS; i++) {
    const login = `benchchatter${i}`;
    fixture.twitch.world.users.push(simUser(String(900_000 + i), login, ""));
    logins.push(login);
  }
  return logins;
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

/** Who is typing: the channels and chatters, and whose turn is next (kept across loads). */
export interface Typists {
  fixture: Fixture;
  chatters: readonly string[];
  turn: { next: number };
}

/** Calls `type` `rate` times a second for `seconds`, a tick's worth at a time; how many it typed. */
export async function atRate(rate: number, seconds: number, type: () => void): Promise<number> {
  const total = rate * seconds;
  const started = performance.now();
  let typed = 0;
  while (typed < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate));
    for (; typed < due; typed++) type();
    await Bun.sleep(TICK_MS);
  }
  return typed;
}

/** Waits until nothing is pending any more, or `DRAIN_MS` passed. */
export async function drain(pending: ReadonlyMap<string, number>): Promise<void> {
  const drainUntil = performance.now() + DRAIN_MS;
  while (pending.size > 0 && performance.now() < drainUntil) await Bun.sleep(20);
}

/**
 * `rate` commands a second for `seconds`, spread over the channels in turn; waits 3 s for the last
 * replies. `pid` is the process answering, whose CPU is counted.
 */
export async function chatLoad(
  typists: Typists,
  pid: number,
  rate: number,
  seconds: number,
): Promise<LoadResult> {
  const { fixture, chatters, turn } = typists;
  const logins = fixture.streamers.map((s) => s.login);
  const pending = new Map<string, number>();
  const latencies: number[] = [];
  const stop = fixture.twitch.chat.onSend((attempt: SimSendAttempt) => {
    const sentAt = attempt.replyParentMessageId ? pending.get(attempt.replyParentMessageId) : undefined;
    if (sentAt === undefined) return;
    pending.delete(attempt.replyParentMessageId!);
    latencies.push(performance.now() - sentAt);
  });
  const cpuBefore = cpuSeconds(pid);
  const started = performance.now();
  let sent = 0;
  try {
    sent = await atRate(rate, seconds, () => {
      const n = turn.next++;
      const channel = logins[n % logins.length]!;
      const user = chatters[Math.floor(n / logins.length) % chatters.length]!;
      const id = fixture.twitch.chat.say({ channel, user, text: TEXT });
      pending.set(id, performance.now());
    });
    await drain(pending);
  } finally {
    stop();
  }
  const elapsed = (performance.now() - started) / 1000;
  const cpu = cpuSeconds(pid) - cpuBefore;
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

/**
 * A warm-up first (every channel answers a few times, so caches read at a channel's first command are
 * filled and the JIT has compiled the path: a server runs for hours, its first seconds are not it),
 * then each rate in turn.
 */
export async function loadRates(
  typists: Typists,
  pid: number,
  rates: readonly number[],
  seconds: number,
): Promise<LoadResult[]> {
  await chatLoad(typists, pid, Math.min(500, typists.fixture.streamers.length), WARM_UP_S);
  const results: LoadResult[] = [];
  for (const rate of rates) results.push(await chatLoad(typists, pid, rate, seconds));
  return results;
}
