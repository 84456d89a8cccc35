// The soak row of `npm run bench` (issue 26 part 3): `serve --demo` under the demo's everyday traffic for
// N minutes, RSS sampled every minute: does memory settle, or grow? Runnable alone:
//   bun bench/soak.ts --minutes 60 [--binary PATH]
// The traffic is what a streamer's setup sends all day, at a steady pace: the dashboard open in a
// browser (its polls, with the session), the overlay's event stream open in OBS, bot commands with the
// demo's API key, game lookups, lines typed in the demo's simulated chat (the bot answers them), and
// the demo's alert Simulate (a real EventSub event through the whole alert path).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY, freePort } from "./fixture.ts";
import { rssMb } from "./footprint.ts";
import type { TableRow } from "./table.ts";

/** After the first half hour (warm-up), RSS may grow by at most this much per hour. */
export const SOAK_SLOPE_TARGET_MB_PER_HOUR = 1;
const SAMPLE_EVERY_MS = 60_000;

/** The pace of each kind of traffic, ms between two of them. */
const PACE = {
  dashboardPoll: 5_000,
  botCommand: 2_000,
  gameLookup: 3_000,
  chatLine: 4_000,
  alertSimulate: 30_000,
} as const;

const BOT_PATHS = ["/api/bot/magic8", "/api/bot/coinflip", "/api/bot/dice", "/api/followage"] as const;
const GAME_PATHS = [
  "/api/game/rank/eu/Kestrel/EUW?type=3&format=text",
  "/api/game/rank/eu/Kestrel/EUW?type=3",
  "/api/game/match/last/eu/Kestrel/EUW?format=text",
] as const;
const DASHBOARD_POLLS = [
  "/api/dashboard/profile",
  "/api/dashboard/chat",
  "/api/dashboard/live",
  "/api/dashboard/demo/chat",
  "/api/dashboard/alerts/history?limit=20",
  "/api/dashboard/activity",
] as const;
const CHAT_LINES = ["!magic8 will it work?", "!followage", "!lurk", "!deaths", "!discord", "hello chat"];
const ALERT_TYPES = ["follow", "subscribe", "cheer", "raid"] as const;

export interface SoakResult {
  minutes: number;
  /** RSS once `serve --demo` answered and before any traffic, MB. */
  startRssMb: number;
  /** RSS at the end of the run, MB. */
  endRssMb: number;
  peakRssMb: number;
  /** Least-squares slope of the samples of the second half, MB per hour. */
  slopeMbPerHour: number;
  samples: { minute: number; rssMb: number }[];
  /** Requests by what they were, and how they were answered. */
  answered: Record<string, Record<number, number>>;
  /** Of the demo chat's last 100 lines at the end, how many were cuebot's answers. */
  botLinesInChat: number;
}

/** A browser's cookie jar for one origin: enough for the session and the login's state cookies. */
class CookieJar {
  readonly #cookies = new Map<string, string>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      this.#cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1).trim());
    }
  }

  get header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

/** A client of one demo server: the dashboard's session, its API key, its overlay token. */
class DemoClient {
  readonly jar = new CookieJar();
  readonly answered: Record<string, Record<number, number>> = {};

  constructor(readonly base: string) {}

  async request(kind: string, path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set("cookie", this.jar.header);
    if (init.method && init.method !== "GET") headers.set("origin", this.base);
    const response = await fetch(this.base + path, { ...init, headers, redirect: "manual" });
    this.jar.take(response);
    this.count(kind, response.status);
    return response;
  }

  count(kind: string, status: number): void {
    const counts = this.answered[kind] ?? {};
    counts[status] = (counts[status] ?? 0) + 1;
    this.answered[kind] = counts;
  }

  async json<T>(kind: string, path: string, init: RequestInit = {}): Promise<T> {
    const response = await this.request(kind, path, init);
    const body = (await response.json()) as { data: T };
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(body)}`);
    return body.data;
  }

  send(kind: string, method: "POST" | "PUT", path: string, body: unknown): Promise<Response> {
    return this.request(kind, path, {
      method,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  }
}

/**
 * The login a browser does: cuebot → the simulated Twitch's consent page → "Authorize" → cuebot. The
 * same for a consent a feature asks for (`consentUrl`, e.g. /auth/login?consent=chat).
 */
async function logIn(client: DemoClient, path = "/auth/login"): Promise<void> {
  const start = await client.request("login", path);
  const authorize = start.headers.get("location");
  if (!authorize) throw new Error(`/auth/login answered ${start.status} with no redirect`);
  const page = await (await fetch(authorize)).text();
  const link = /class="approve" href="([^"]+)"/
    .exec(page)?.[1]
    ?.replaceAll("&#38;", "&")
    .replaceAll("&amp;", "&");
  if (!link) throw new Error("the simulated consent page offered no account to approve");
  const approved = await fetch(new URL(link, authorize), { redirect: "manual" });
  const callback = approved.headers.get("location");
  if (!callback) throw new Error(`the consent answered ${approved.status} with no redirect`);
  const landed = await client.request("login", new URL(callback).pathname + new URL(callback).search);
  if (landed.status !== 302 && landed.status !== 303)
    throw new Error(`the callback answered ${landed.status}`);
}

/** What the traffic needs after the login: the API key, the overlay's token, chat and alerts on. */
async function prepare(client: DemoClient): Promise<{ apiKey: string; overlayToken: string; login: string }> {
  const { apiKey } = await client.json<{ apiKey: string }>("setup", "/api/dashboard/security/reveal-key", {
    method: "POST",
  });
  const account = await client.json<{ login: string }>("setup", "/api/dashboard/profile");
  const overlay = await client.json<{ overlay_url: string | null }>("setup", "/api/dashboard/overlay");
  // The OBS link is <public URL>/overlay/<token>.
  const overlayToken = decodeURIComponent(overlay.overlay_url?.split("/overlay/")[1] ?? "");
  for (const feature of ["chat", "alerts"]) {
    await (await client.send("setup", "PUT", `/api/dashboard/${feature}`, { enabled: true })).arrayBuffer();
    // Turned on, the feature may ask for a permission first: given as a streamer gives it.
    const answer = await client.json<{ state: string; consentUrl: string | null }>(
      "setup",
      `/api/dashboard/${feature}`,
    );
    if (answer.state === "needs_consent" && answer.consentUrl) await logIn(client, answer.consentUrl);
  }
  return { apiKey, overlayToken, login: account.login };
}

/** The overlay in OBS: its event stream kept open (and opened again if it ends) until `signal`. */
async function holdOverlayStream(client: DemoClient, token: string, signal: AbortSignal): Promise<void> {
  while (!signal.aborted) {
    try {
      const response = await fetch(`${client.base}/api/overlay/events?token=${encodeURIComponent(token)}`, {
        signal,
      });
      client.count("overlay", response.status);
      const reader = response.body?.getReader();
      while (reader && !(await reader.read()).done) {}
    } catch {
      // aborted at the end, or the stream broke: open it again
    }
    if (!signal.aborted) await Bun.sleep(1_000);
  }
}

/** Calls `act` every `paceMs` until `signal` (one at a time: a slow answer delays the next). */
async function every(
  paceMs: number,
  signal: AbortSignal,
  act: (n: number) => Promise<unknown>,
): Promise<void> {
  for (let n = 0; !signal.aborted; n++) {
    try {
      const result = await act(n);
      if (result instanceof Response) await result.arrayBuffer();
    } catch {
      // counted by status where there was one; the soak goes on
    }
    await Bun.sleep(paceMs);
  }
}

function traffic(
  client: DemoClient,
  setup: { apiKey: string; overlayToken: string; login: string },
  signal: AbortSignal,
): Promise<unknown> {
  const key = encodeURIComponent(setup.apiKey);
  const pick = <T>(list: readonly T[], n: number): T => list[n % list.length]!;
  return Promise.all([
    holdOverlayStream(client, setup.overlayToken, signal),
    every(PACE.dashboardPoll, signal, (n) => client.request("dashboard", pick(DASHBOARD_POLLS, n))),
    every(PACE.botCommand, signal, (n) =>
      client.request(
        "bot",
        `${pick(BOT_PATHS, n)}?apiKey=${key}&channel=${setup.login}&user=viewer_anna&q=${n}`,
      ),
    ),
    every(PACE.gameLookup, signal, (n) => client.request("game", pick(GAME_PATHS, n))),
    every(PACE.chatLine, signal, (n) =>
      client.send("chat", "POST", "/api/dashboard/demo/chat", {
        text: pick(CHAT_LINES, n),
        user: pick(["viewer_anna", "modbob", "subdave", "lurker_eve"], n),
      }),
    ),
    every(PACE.alertSimulate, signal, (n) =>
      client.send("alerts", "POST", "/api/dashboard/alerts/simulate", { type: pick(ALERT_TYPES, n) }),
    ),
  ]);
}

/** Least-squares slope of (minute, MB), in MB per hour. */
export function slopePerHour(samples: readonly { minute: number; rssMb: number }[]): number {
  if (samples.length < 2) return 0;
  const n = samples.length;
  const mx = samples.reduce((s, p) => s + p.minute, 0) / n;
  const my = samples.reduce((s, p) => s + p.rssMb, 0) / n;
  const num = samples.reduce((s, p) => s + (p.minute - mx) * (p.rssMb - my), 0);
  const den = samples.reduce((s, p) => s + (p.minute - mx) ** 2, 0);
  return den === 0 ? 0 : (num / den) * 60;
}

async function startDemo(binary: string): Promise<{ base: string; pid: number; stop(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), "cuebot-soak-"));
  const port = freePort();
  const proc = Bun.spawn(
    [binary, "serve", "--demo", "--data-dir", dataDir, "--port", String(port), "--log", "warn"],
    {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dataDir },
      stdout: "ignore",
      stderr: "inherit",
    },
  );
  // The demo's public URL is http://localhost:<port>: its cookies and redirects name that host.
  const base = `http://localhost:${port}`;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`serve --demo exited (${proc.exitCode})`);
    const ok = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await Bun.sleep(50);
  }
  return {
    base,
    pid: proc.pid,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs the soak: `serve --demo` from `binary`, the demo's traffic for `minutes`, RSS every minute. */
export async function soak(
  binary = BINARY,
  minutes = 60,
  progress: (line: string) => void = () => {},
): Promise<SoakResult> {
  const server = await startDemo(binary);
  const controller = new AbortController();
  try {
    await Bun.sleep(5_000);
    const startRssMb = rssMb(server.pid);
    progress(`start: RSS ${startRssMb.toFixed(1)} MB`);
    const client = new DemoClient(server.base);
    await logIn(client);
    const setup = await prepare(client);
    const running = traffic(client, setup, controller.signal);
    const samples: { minute: number; rssMb: number }[] = [];
    for (let minute = 1; minute <= minutes; minute++) {
      await Bun.sleep(SAMPLE_EVERY_MS);
      samples.push({ minute, rssMb: rssMb(server.pid) });
      progress(
        `minute ${minute}: RSS ${samples.at(-1)!.rssMb.toFixed(1)} MB ${JSON.stringify(client.answered)}`,
      );
    }
    controller.abort();
    await running;
    const chat = await client.json<{ lines: { fromCuebot: boolean }[] }>("setup", "/api/dashboard/demo/chat");
    const secondHalf = samples.filter((s) => s.minute > minutes / 2);
    return {
      minutes,
      startRssMb,
      endRssMb: samples.at(-1)?.rssMb ?? startRssMb,
      peakRssMb: Math.max(startRssMb, ...samples.map((s) => s.rssMb)),
      slopeMbPerHour: slopePerHour(secondHalf),
      samples,
      answered: client.answered,
      botLinesInChat: chat.lines.filter((line) => line.fromCuebot).length,
    };
  } finally {
    controller.abort();
    await server.stop();
  }
}

/** The soak's rows of the bench table. */
export function soakRows(result: SoakResult, bench = "dist/cuebot"): TableRow[] {
  const met = result.slopeMbPerHour <= SOAK_SLOPE_TARGET_MB_PER_HOUR;
  return [
    {
      bench,
      measure: `RSS after ${result.minutes} min of the demo's traffic (serve --demo)`,
      value: `${result.endRssMb.toFixed(0)} MB`,
      note: `${result.startRssMb.toFixed(0)} MB after start, peak ${result.peakRssMb.toFixed(0)} MB; growth over the second half ${result.slopeMbPerHour >= 0 ? "+" : ""}${result.slopeMbPerHour.toFixed(1)} MB/h; target ≤ ${SOAK_SLOPE_TARGET_MB_PER_HOUR} MB/h ${met ? "met" : "MISSED"}`,
    },
  ];
}

if (import.meta.main) {
  const flag = process.argv.indexOf("--minutes");
  const minutes = flag === -1 ? 60 : Number(process.argv[flag + 1]);
  console.log(`soak: ${BINARY}, ${minutes} min, started ${new Date().toISOString()}`);
  const result = await soak(BINARY, minutes, (line) => console.log(`${new Date().toISOString()} ${line}`));
  const { formatTable } = await import("./table.ts");
  console.log(formatTable(soakRows(result, BINARY)));
  console.log(
    JSON.stringify({
      answered: result.answered,
      botLinesInChat: result.botLinesInChat,
      samples: result.samples,
    }),
  );
  process.exit(0);
}
