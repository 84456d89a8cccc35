import { listAccounts } from "../db/accounts.ts";
import { setModerationEnabled, writeModerationSettings } from "../db/moderation.ts";
import { noticeChanges } from "../server/core/change-notices.ts";
import { loadConfig } from "../server/core/config.ts";
import { createCore } from "../server/core/context.ts";
import { createLogger } from "../server/core/log.ts";
import { compileFilters, judgeLine } from "../server/moderation/judge.ts";
import type { SayInput } from "../server/sim/twitch/chat/lines.ts";
import { MODERATION_LIMITS, type ShieldSettings } from "../server/vocabulary.ts";
import { addChatters, atRate, cpuSeconds, drain, percentile } from "./chat-load.ts";
import { createFixture, type Fixture, startBinary } from "./fixture.ts";
import { benchFilterSettings, ORDINARY_LINES } from "./moderation-filters.ts";
import type { TableRow } from "./table.ts";

/**
 * Chat moderation under load (issue 35, `npm run bench`'s "moderation" row), black box: the built
 * binary reads N channels over the Twitch simulator's EventSub sockets (the streamer's own token, with
 * moderation's scopes) while chatters type at a steady rate: mostly ordinary lines (the filters'
 * microbenchmark's, bench/moderation-filters.ts), and one line in `caughtEvery` (20) a link or a shout,
 * each from a chatter never seen before, so every caught line is a first offence: deleted and warned.
 * With every filter on (an allow list, terms and a regex too; the raid shield on with thresholds no
 * line reaches) and with moderation switched off, in turns on the same running server (the switch
 * written to the store and announced as an admin command does), the same mix. It measures cuebot's
 * CPU per message (every thread, from /proc) in each, and each caught line's time from the simulator
 * sending its notification to the simulator receiving Delete Chat Messages for it. Helix buckets
 * are Twitch's 800 a minute per user here: a 429 would show, and is reported.
 * `bun bench/moderation-load.ts [--channels 100] [--rate 1000] [--seconds 10] [--caught-every 20]
 * [--profile]`; `--caught-every 0` types no spam, so the difference is the judging alone.
 */

export const MODERATION_TARGETS = { addedCpuUs: 20, p99Ms: 50 } as const;

export interface ModerationLoadOptions {
  channels: number;
  /** Messages a second over all channels. */
  rate: number;
  /** Seconds of each measured turn (two with moderation on, two off, alternating). */
  seconds: number;
  /** One line in this many is a link or caps from a new chatter (0: none, to see the judging alone). */
  caughtEvery: number;
  /** Extra environment for the server (e.g. Bun's CPU profiler). */
  env?: Record<string, string>;
}

const TURNS = 2;
const WARM_UP_S = 5;
const SWITCH_WARM_UP_S = 3;
/** After the switch is announced, before a turn: the server re-reads its channels. */
const SWITCH_SETTLE_MS = 2_000;
const TWITCH_BUCKET = 800;

/** The ordinary lines chatters type here: no command, so nothing but moderation answers a line. */
const CHAT_LINES = ORDINARY_LINES.filter((line) => !line.text.startsWith("!"));

/** What spammers type; `k` makes each line and host its own. */
const SPAM: readonly ((k: number) => string)[] = [
  (k) => `free followers at bigfollows${k} . com`,
  (k) => `WHY IS THIS STREAM SO BORING TODAY, WAKE UP ${k}`,
  (k) => `cheap viewers here growfast${k}(dot)net`,
  (k) => `STOP PLAYING LIKE THAT AND JUST WIN ALREADY ${k}`,
];

/** The raid shield on, with thresholds the mix never reaches (its bookkeeping still runs per line). */
const QUIET_SHIELD: ShieldSettings = {
  enabled: true,
  chatters: MODERATION_LIMITS.shieldChatters.max,
  seconds: MODERATION_LIMITS.shieldSeconds.min,
  minutes: MODERATION_LIMITS.shieldMinutes.min,
};

/** Who types what next: the channels, the regular chatters, and counters kept across turns. */
interface Typing {
  fixture: Fixture;
  channels: readonly string[];
  chatters: readonly string[];
  caughtEvery: number;
  next: number;
  spammers: number;
}

/** The n-th line of the mix: its channel's own count decides whether a spammer types it. */
function nextLine(typing: Typing): SayInput & { spam: boolean } {
  const n = typing.next++;
  const at = n % typing.channels.length;
  const own = Math.floor(n / typing.channels.length);
  const channel = typing.channels[at]!;
  if (typing.caughtEvery > 0 && (own + at) % typing.caughtEvery === 0) {
    const k = typing.spammers++;
    return { channel, user: `benchspam${k}`, text: SPAM[k % SPAM.length]!(k), spam: true };
  }
  const line = CHAT_LINES[own % CHAT_LINES.length]!;
  const user = typing.chatters[own % typing.chatters.length]!;
  return { channel, user, text: line.text, emotes: [...line.emotes], spam: false };
}

/** The mix is what it says: every spam line caught, no ordinary line (checked before measuring). */
function checkMix(): void {
  const compiled = compileFilters(benchFilterSettings());
  const judged = (text: string, emotes: readonly string[]) =>
    judgeLine(compiled, { text, emotes }, "everyone", { linksPermitted: false });
  for (const line of ORDINARY_LINES.filter((l) => judged(l.text, l.emotes) !== null))
    throw new Error(`an ordinary line is caught: ${line.text}`);
  for (const spam of SPAM)
    if (judged(spam(7), []) === null) throw new Error(`a spam line is not caught: ${spam(7)}`);
}

/** What one turn measured. */
interface Turn {
  moderation: boolean;
  sent: number;
  refused: number;
  cpu: number;
  seconds: number;
  spam: number;
  latencies: number[];
  /** Delete Chat Messages answers by status. */
  deletions: Map<number, number>;
}

/** `rate` lines a second for `seconds`; with moderation on, each spam line timed until its deletion. */
async function turn(typing: Typing, pid: number, options: ModerationLoadOptions, on: boolean): Promise<Turn> {
  const { chat } = typing.fixture.twitch;
  const pending = new Map<string, number>();
  const result: Turn = {
    moderation: on,
    sent: 0,
    refused: 0,
    cpu: 0,
    seconds: 0,
    spam: 0,
    latencies: [],
    deletions: new Map(),
  };
  const stop = chat.onDelete((call) => {
    result.deletions.set(call.status, (result.deletions.get(call.status) ?? 0) + 1);
    const sentAt = pending.get(call.messageId);
    if (sentAt === undefined) return;
    pending.delete(call.messageId);
    result.latencies.push(performance.now() - sentAt);
  });
  const cpuBefore = cpuSeconds(pid);
  const started = performance.now();
  try {
    result.sent = await atRate(options.rate, options.seconds, () => {
      const { spam, ...line } = nextLine(typing);
      const said = chat.trySay(line);
      if (said.refused) result.refused++;
      else if (spam) {
        result.spam++;
        if (on) pending.set(said.messageId, performance.now());
      }
    });
    await drain(pending);
  } finally {
    stop();
  }
  result.seconds = (performance.now() - started) / 1000;
  result.cpu = cpuSeconds(pid) - cpuBefore;
  result.latencies.sort((a, b) => a - b);
  return result;
}

/** The bench streamers' account ids. */
async function streamerIds(fixture: Fixture): Promise<number[]> {
  const core = quietCore(fixture);
  try {
    return (await listAccounts(core.db)).filter((a) => a.login.startsWith("benchstreamer")).map((a) => a.id);
  } finally {
    await core.close();
  }
}

const quietCore = (fixture: Fixture) =>
  createCore(loadConfig({ dataDir: fixture.dataDir, env: {} }), {
    log: createLogger({ level: "error", format: "json", write: () => {} }),
  });

/** Writes the settings (first time) and the switch for every streamer, and tells the running server. */
async function switchModeration(fixture: Fixture, ids: readonly number[], on: boolean, settings = false) {
  const core = quietCore(fixture);
  const now = Date.now();
  try {
    await core.db.transaction(async (tx) => {
      for (const id of ids) {
        if (settings)
          await writeModerationSettings(
            tx,
            id,
            { filters: benchFilterSettings(), shield: QUIET_SHIELD },
            now,
          );
        await setModerationEnabled(tx, id, on, now);
      }
    });
  } finally {
    await core.close();
  }
  await noticeChanges(fixture.dataDir);
  await Bun.sleep(SWITCH_SETTLE_MS);
}

/**
 * The server on the fixture: warmed with moderation on, then `TURNS` turns of each, alternating, each
 * after a few seconds unmeasured since the switch.
 */
async function measure(fixture: Fixture, options: ModerationLoadOptions): Promise<Turn[]> {
  const ids = await streamerIds(fixture);
  await switchModeration(fixture, ids, true, true);
  const server = await startBinary(
    { dataDir: fixture.dataDir, env: { ...fixture.env, ...options.env } },
    { settled: true },
  );
  const typing: Typing = {
    fixture,
    channels: fixture.streamers.map((s) => s.login),
    chatters: addChatters(fixture),
    caughtEvery: options.caughtEvery,
    next: 0,
    spammers: 0,
  };
  try {
    await waitSubscribed(fixture, options.channels);
    await turn(typing, server.pid, { ...options, seconds: WARM_UP_S }, true);
    const turns: Turn[] = [];
    for (let i = 0; i < TURNS * 2; i++) {
      const on = i % 2 === 1;
      await switchModeration(fixture, ids, on);
      // The switch's notice drops every cache, as an admin command's does: they fill again first.
      await turn(typing, server.pid, { ...options, seconds: SWITCH_WARM_UP_S }, on);
      turns.push(await turn(typing, server.pid, options, on));
    }
    return turns;
  } finally {
    await server.stop();
  }
}

async function waitSubscribed(fixture: Fixture, channels: number): Promise<void> {
  const deadline = performance.now() + 120_000;
  const enabled = () =>
    fixture.twitch.chat
      .subscriptions()
      .filter((s) => s.type === "channel.chat.message" && s.status === "enabled").length;
  while (enabled() < channels) {
    if (performance.now() > deadline) throw new Error(`only ${enabled()} of ${channels} channels subscribed`);
    await Bun.sleep(100);
  }
}

const ok = (pass: boolean) => (pass ? "met" : "MISSED");
const sum = (turns: readonly Turn[], of: (t: Turn) => number) => turns.reduce((total, t) => total + of(t), 0);
const usPerMessage = (turns: readonly Turn[]) => (sum(turns, (t) => t.cpu) * 1e6) / sum(turns, (t) => t.sent);
const named = (counts: ReadonlyMap<string | number, number>) =>
  counts.size === 0 ? "none" : [...counts].map(([key, n]) => `${n} ${key}`).join(", ");

function cpuRow(
  on: readonly Turn[],
  off: readonly Turn[],
  options: ModerationLoadOptions,
): Omit<TableRow, "bench"> {
  const added = usPerMessage(on) - usPerMessage(off);
  const percent = (sum(on, (t) => t.cpu) / sum(on, (t) => t.seconds)) * 100;
  return {
    measure: "CPU per message, all filters on",
    value: `${usPerMessage(on).toFixed(1)} µs`,
    note: `moderation off ${usPerMessage(off).toFixed(1)} µs: filters add ${added.toFixed(1)} µs a message; ${options.rate} messages a second, ${options.caughtEvery > 0 ? `1 in ${options.caughtEvery}` : "none"} a link or caps from a new chatter; cuebot ${percent.toFixed(0)} % of a core with them on; target ≤ ${MODERATION_TARGETS.addedCpuUs} µs added ${ok(added <= MODERATION_TARGETS.addedCpuUs)}`,
  };
}

function latencyRow(on: readonly Turn[], fixture: Fixture): Omit<TableRow, "bench"> {
  const latencies = on.flatMap((t) => t.latencies).sort((a, b) => a - b);
  const spam = sum(on, (t) => t.spam);
  const refused = sum([...on], (t) => t.refused);
  const deletions = new Map<number, number>();
  for (const t of on)
    for (const [status, n] of t.deletions) deletions.set(status, (deletions.get(status) ?? 0) + n);
  const { tooMany, chatDrops } = fixture.twitch.stats;
  const p99 = percentile(latencies, 99);
  const met = p99 <= MODERATION_TARGETS.p99Ms && latencies.length === spam && tooMany.size === 0;
  return {
    measure: "caught line: notification → Delete Chat Messages",
    value: `p99 ${p99.toFixed(1)} ms`,
    note: `p50 ${percentile(latencies, 50).toFixed(1)} ms; ${latencies.length}/${spam} caught lines deleted (answers: ${named(deletions)}); ${refused} lines refused by the room; Helix 429s: ${named(tooMany)}; chat drops: ${named(chatDrops)}; target p99 ≤ ${MODERATION_TARGETS.p99Ms} ms, every line deleted, no 429 ${ok(met)}`,
  };
}

/** The "moderation" rows of the bench table. */
export async function moderationRows(options: ModerationLoadOptions): Promise<TableRow[]> {
  checkMix();
  const fixture = await createFixture(options.channels, { chat: true, moderation: true });
  fixture.twitch.knobs.rateLimit.limit = TWITCH_BUCKET;
  fixture.twitch.knobs.rateLimit.remaining = TWITCH_BUCKET;
  try {
    const turns = await measure(fixture, options);
    const on = turns.filter((t) => t.moderation);
    const off = turns.filter((t) => !t.moderation);
    const bench = `moderation, ${options.channels} channels`;
    return [cpuRow(on, off, options), latencyRow(on, fixture)].map((row) => ({ bench, ...row }));
  } finally {
    await fixture.stop();
  }
}

function flag(name: string, fallback: string): number {
  const at = process.argv.indexOf(name);
  return Number(at === -1 ? fallback : process.argv[at + 1]);
}

if (import.meta.main) {
  const { formatTable } = await import("./table.ts");
  const { printProfile, profiler } = await import("./profile-report.ts");
  const profile = process.argv.includes("--profile") ? profiler() : null;
  const rows = await moderationRows({
    channels: flag("--channels", "100"),
    rate: flag("--rate", "1000"),
    seconds: flag("--seconds", "10"),
    caughtEvery: flag("--caught-every", "20"),
    env: profile?.env,
  });
  console.log(formatTable(rows));
  if (profile) printProfile("cuebot", profile.dir);
}
