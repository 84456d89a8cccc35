import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setAccountRole } from "../db/accounts.ts";
import { writeChatEnabled } from "../db/chat.ts";
import { provisionAccount } from "../server/core/accounts.ts";
import { loadConfig } from "../server/core/config.ts";
import { prepareDataDir } from "../server/core/data-dir.ts";
import { createLogger } from "../server/core/log.ts";
import { saveProviderTokens } from "../server/identity/provider-tokens.ts";
import { createContext } from "../server/runtime.ts";
import { type GameSimulator, startGameSimulator } from "../server/sim/game/server.ts";
import { startTwitchSimulator, type TwitchSimulator } from "../server/sim/twitch/server.ts";
import { type SimUser, seedWorld } from "../server/sim/twitch/world.ts";
import { BASE_SCOPES, MODERATION_EXTRA_SCOPES, READ_CHAT_SCOPE } from "../server/twitch/scopes.ts";

/**
 * What `npm run bench` runs against: the built binary `dist/cuebot` as a black box, on a data folder
 * seeded beforehand, with the Twitch and game simulators of this repository standing in for the
 * platforms. Only the seeding reaches inside (it writes accounts through cuebot's own functions).
 */

export const ROOT = resolve(import.meta.dir, "..");
/** The binary under test: dist/cuebot, or another build named with `--binary PATH` (to compare two). */
const binaryFlag = process.argv.indexOf("--binary");
export const BINARY =
  binaryFlag === -1 ? join(ROOT, "dist", "cuebot") : resolve(process.argv[binaryFlag + 1]!);

/** The viewer every bot request asks about (seeded in the simulated world). */
export const VIEWER = "viewer_anna";

export interface BotAccount {
  login: string;
  apiKey: string;
}

export interface Fixture {
  dataDir: string;
  twitch: TwitchSimulator;
  game: GameSimulator;
  /** Partner accounts, each with its own key (so no key meets its quota during a run). */
  streamers: BotAccount[];
  /** A Default account whose key the bench drives past its quota. */
  refused: BotAccount;
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** A user of the simulated Twitch: a streamer the bench seeds, or a chatter. */
export function simUser(id: string, login: string, broadcasterType: "affiliate" | ""): SimUser {
  return {
    id,
    login,
    display_name: login,
    type: "",
    broadcaster_type: broadcasterType,
    description: "",
    profile_image_url: "",
    offline_image_url: "",
    view_count: 0,
    email: `${login}@example.test`,
    created_at: "2020-01-01T00:00:00Z",
  };
}

const FOLLOW_SCOPES = ["moderator:read:followers", "user:read:email"];
/** What a streamer grants when turning native chat on (chat/status.ts consentProblem). */
export const CHAT_SCOPES = [...FOLLOW_SCOPES, "user:read:chat", "user:write:chat"];

/** What a streamer grants when turning moderation on, speaking as themselves (the login's, chat's, moderation's). */
export const MODERATION_GRANT = [...BASE_SCOPES, READ_CHAT_SCOPE, ...MODERATION_EXTRA_SCOPES];

export interface FixtureOptions {
  /** Every streamer has native chat on, with the grant the consent flow asks for (bench/chat-scale.ts). */
  chat?: boolean;
  /** With `chat`: each grant holds moderation's scopes too (bench/moderation-load.ts). */
  moderation?: boolean;
}

export async function createFixture(streamerCount: number, options: FixtureOptions = {}): Promise<Fixture> {
  const scopes = options.moderation ? MODERATION_GRANT : options.chat ? CHAT_SCOPES : FOLLOW_SCOPES;
  const dataDir = mkdtempSync(join(tmpdir(), "cuebot-bench-data-"));
  const world = seedWorld(Date.now());
  for (let i = 0; i < streamerCount + 1; i++) {
    const id = String(500_000 + i);
    const login = i === streamerCount ? "benchrefused" : `benchstreamer${i}`;
    world.users.push(simUser(id, login, "affiliate"));
  }
  const twitch = startTwitchSimulator({ world });
  // The bench measures cuebot, not Twitch's per-token minute: every bucket is made bottomless.
  twitch.knobs.rateLimit.limit = 100_000_000;
  twitch.knobs.rateLimit.remaining = 100_000_000;
  const game = startGameSimulator({ rateLimitPerMinute: 100_000_000 });

  prepareDataDir(dataDir);
  const config = loadConfig({ dataDir, env: {} });
  const ctx = createContext(config, {
    log: createLogger({ level: "error", format: "json", write: () => {} }),
  });
  const seed = async (store: typeof ctx, i: number): Promise<BotAccount> => {
    const login = i === streamerCount ? "benchrefused" : `benchstreamer${i}`;
    const { account, apiKey } = await provisionAccount(store, {
      twitchUserId: String(500_000 + i),
      login,
      displayName: login,
    });
    const issued = twitch.issueUserToken(login, scopes);
    await saveProviderTokens(store, account.id, { ...issued, scopes, expiresIn: 4 * 3600 });
    if (i !== streamerCount) {
      await setAccountRole(store.db, account.id, "Partner", Date.now());
      if (options.chat) await writeChatEnabled(store.db, account.id, true, Date.now());
    }
    return { login, apiKey };
  };
  const streamers: BotAccount[] = [];
  await ctx.db.transaction(async (tx) => {
    for (let i = 0; i < streamerCount; i++) streamers.push(await seed({ ...ctx, db: tx }, i));
  });
  const refused = await seed(ctx, streamerCount);
  await ctx.close();

  return {
    dataDir,
    twitch,
    game,
    streamers,
    refused,
    env: {
      CUEBOT_TWITCH_CLIENT_ID: twitch.client.id,
      CUEBOT_TWITCH_CLIENT_SECRET: twitch.client.secret,
      CUEBOT_TWITCH_AUTH_URL: twitch.authUrl,
      CUEBOT_TWITCH_API_URL: twitch.helixUrl,
      CUEBOT_TWITCH_EVENTSUB_URL: twitch.eventsubUrl,
      CUEBOT_GAME_API_URL: game.url,
      CUEBOT_GAME_API_KEY: game.apiKey,
      // info: the bench waits for the start-up token validation to finish before it measures.
      CUEBOT_LOG: "info",
      CUEBOT_LOG_FORMAT: "json",
      CUEBOT_TRUST_PROXY: "true",
    },
    async stop() {
      await Promise.all([twitch.stop(), game.stop()]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function freePort(): number {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

export interface RunningBinary {
  url: string;
  pid: number;
  /** Resident set size of the server process, MB. */
  rssMb(): number;
  stop(): Promise<void>;
}

async function waitHealthy(url: string, proc: { exitCode: number | null }): Promise<void> {
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the server exited (${proc.exitCode}) before it was ready`);
    try {
      const res = await fetch(`${url}/healthz`);
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await Bun.sleep(1);
  }
}

/** Resolves when a line containing `text` appears on `stream`; keeps draining it afterwards. */
function watchFor(stream: ReadableStream<Uint8Array>, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const decoder = new TextDecoder();
    let seen = "";
    let found = false;
    (async () => {
      const reader = stream.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (found) continue;
        seen = (seen + decoder.decode(value)).slice(-4096);
        if (seen.includes(text)) {
          found = true;
          resolve();
        }
      }
      if (!found) reject(new Error(`the server never logged "${text}"`));
    })();
  });
}

/**
 * Starts `dist/cuebot serve` on a free port; resolves once /healthz answers 200, with the time it
 * took. With `settled`, it then waits for the start-up validation of stored Twitch tokens (one call
 * per account) to finish, so that work does not share the CPU with a measurement. With `redisUrl`,
 * its limits and overlays are shared through that Redis (several instances on one data folder); with
 * `databaseUrl`, its data is in that PostgreSQL database; with `binary`, that build runs instead of
 * BINARY (the chat bench's `--before`).
 */
export async function startBinary(
  fixture: Pick<Fixture, "dataDir" | "env">,
  options: { settled?: boolean; redisUrl?: string; databaseUrl?: string; binary?: string } = {},
): Promise<RunningBinary & { startMs: number }> {
  const binary = options.binary ?? BINARY;
  if (!existsSync(binary)) throw new Error(`${binary} is missing: run npm run build first`);
  const port = freePort();
  const started = performance.now();
  const shared = [
    ...(options.redisUrl ? ["--redis-url", options.redisUrl] : []),
    ...(options.databaseUrl ? ["--database-url", options.databaseUrl] : []),
  ];
  const proc = Bun.spawn(
    [binary, "serve", "--data-dir", fixture.dataDir, "--port", String(port), ...shared],
    {
      env: { ...process.env, ...fixture.env },
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  const validated = watchFor(proc.stdout, "validated stored Twitch tokens");
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitHealthy(url, proc);
  } catch (error) {
    throw new Error(`${(error as Error).message}: ${await new Response(proc.stderr).text()}`);
  }
  const startMs = performance.now() - started;
  if (options.settled) await validated;
  return {
    url,
    pid: proc.pid,
    startMs,
    rssMb() {
      const status = require("node:fs").readFileSync(`/proc/${proc.pid}/status`, "utf8") as string;
      const kb = /VmRSS:\s+(\d+) kB/.exec(status);
      return kb ? Number(kb[1]) / 1024 : Number.NaN;
    },
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

/** The first line a process prints (without its newline); throws `failure` if it ends before one. */
export async function firstLine(stdout: ReadableStream<Uint8Array>, failure: string): Promise<string> {
  const reader = stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(failure);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return text.slice(0, text.indexOf("\n"));
}

/** A yardstick server (bench/bare-server.ts) in its own process: the bare Bun.serve by default. */
export async function startBare(
  mode: "constant" | "contract-reads" | "elysia" | "replay" = "constant",
  /** For `replay`: the file of recorded replies. */
  file?: string,
): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const args = [process.execPath, join(ROOT, "bench", "bare-server.ts"), mode, ...(file ? [file] : [])];
  const proc = Bun.spawn(args, {
    stdout: "pipe",
    stderr: "inherit",
  });
  const port = await firstLine(proc.stdout, "the bare server did not start");
  return {
    url: `http://127.0.0.1:${port}`,
    pid: proc.pid,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}
