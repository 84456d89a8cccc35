import { type Clock, systemClock } from "../../core/clock.ts";
import { accountAnswer } from "./account.ts";
import { errorJson, FAILURE_MESSAGES, type PlayerRequest, type SimFailure } from "./answers.ts";
import { matchesAnswer } from "./matches.ts";
import { mmrAnswer, mmrHistoryAnswer } from "./mmr.ts";
import { SEED_PLAYERS, type SeedPlayer } from "./players.ts";

/**
 * A local stand-in for the game-statistics provider (reference/game-provider.md), served over real
 * HTTP on loopback so the real client is exercised by tests and by `serve --demo`. It speaks the
 * provider's routes, field names and quirks: account v1 (account.ts), MMR v2 and MMR history v1
 * (mmr.ts) and matches v3 (matches.ts); a required key (401 missing / 403 unknown); `x-ratelimit-*`
 * headers and a per-minute limit; error bodies with a top-level `status` and `errors[]` (answers.ts);
 * unix-second dates relative to an injectable clock. The seeded players are in players.ts.
 */

export const DEMO_GAME_API_KEY = "HDEV-00000000-0000-4000-8000-00000000c0eb";

export type SimRoute = "account" | "mmr" | "mmrHistory" | "matches";

export interface GameSimulatorKnobs {
  /** When set, every authenticated request to a known route fails with this status. */
  failWith: SimFailure | null;
  /** Delay before every answer, in ms of real time. */
  latencyMs: number;
}

export interface GameSimulatorOptions {
  clock?: Clock;
  /** The one key the simulator accepts (header `Authorization` or query `api_key`). */
  apiKey?: string;
  hostname?: string;
  port?: number;
  /** Requests per minute per key before 429, like the provider's basic keys. */
  rateLimitPerMinute?: number;
  /**
   * "start": match times are fixed relative to the clock when the simulator started, so moving a
   * test clock ages them. "request": relative to each request's time, so a long-running demo always
   * has games "today".
   */
  anchor?: "start" | "request";
}

export interface GameSimulator {
  url: string;
  apiKey: string;
  knobs: GameSimulatorKnobs;
  /** Requests received per route, whatever the answer. */
  calls: Record<SimRoute, number>;
  totalCalls(): number;
  resetCalls(): void;
  players: readonly SeedPlayer[];
  stop(): Promise<void>;
}

interface Route {
  name: SimRoute;
  region: string | null;
  gameName: string;
  tag: string;
}

const RESOURCES: Record<SimRoute, (request: PlayerRequest) => Response> = {
  account: accountAnswer,
  mmr: mmrAnswer,
  mmrHistory: mmrHistoryAnswer,
  matches: matchesAnswer,
};

const VALID_REGIONS = new Set(["eu", "na", "ap", "kr", "latam", "br"]);

/** The provider converts br and latam to na: they share a shard. */
function shard(region: string): string {
  return region === "br" || region === "latam" ? "na" : region;
}

function sameId(a: string, b: string): boolean {
  return a.normalize("NFC").toLowerCase() === b.normalize("NFC").toLowerCase();
}

const findPlayer = (name: string, tag: string) =>
  SEED_PLAYERS.find((p) => sameId(p.name, name) && sameId(p.tag, tag)) ?? null;

/** The four provider routes cuebot calls; anything else is the provider's generic 404. */
function routeOf(segments: string[]): Route | null {
  const [root, version, kind, ...rest] = segments;
  if (root !== "valorant") return null;
  if (version === "v1" && kind === "account" && rest.length === 2) {
    return { name: "account", region: null, gameName: rest[0]!, tag: rest[1]! };
  }
  if (rest.length !== 3) return null;
  const [region, name, tag] = rest as [string, string, string];
  const lowerRegion = region.toLowerCase();
  if (version === "v2" && kind === "mmr") return { name: "mmr", region: lowerRegion, gameName: name, tag };
  if (version === "v1" && kind === "mmr-history")
    return { name: "mmrHistory", region: lowerRegion, gameName: name, tag };
  if (version === "v3" && kind === "matches")
    return { name: "matches", region: lowerRegion, gameName: name, tag };
  return null;
}

export function startGameSimulator(options: GameSimulatorOptions = {}): GameSimulator {
  const clock = options.clock ?? systemClock;
  const apiKey = options.apiKey ?? DEMO_GAME_API_KEY;
  const limit = options.rateLimitPerMinute ?? 30;
  const startedAt = clock.now();
  const anchor = () => (options.anchor === "request" ? clock.now() : startedAt);
  const knobs: GameSimulatorKnobs = { failWith: null, latencyMs: 0 };
  const calls: Record<SimRoute, number> = { account: 0, mmr: 0, mmrHistory: 0, matches: 0 };
  let rateWindow = { start: clock.now(), used: 0 };

  const rateHeaders = (remaining: number, resetS: number) => ({
    "x-ratelimit-limit": String(limit),
    "x-ratelimit-remaining": String(Math.max(0, remaining)),
    "x-ratelimit-reset": String(resetS),
  });

  /** The route, the latency, the key, the rate limit and injected failures, then the resource. */
  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    let segments: string[];
    try {
      segments = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
    } catch {
      return errorJson(400, 0, "Invalid URL encoding");
    }
    const route = routeOf(segments);
    if (!route) return errorJson(404, 0, "Route not found");
    calls[route.name]++;
    if (knobs.latencyMs > 0) await Bun.sleep(knobs.latencyMs);

    const presented = request.headers.get("authorization") ?? url.searchParams.get("api_key");
    if (!presented)
      return errorJson(401, 0, "Missing API Key, get one at https://api.henrikdev.xyz/dashboard/");
    if (presented !== apiKey) return errorJson(403, 0, "Invalid API Key");

    const now = clock.now();
    if (now - rateWindow.start >= 60_000) rateWindow = { start: now, used: 0 };
    const resetS = Math.max(1, Math.ceil((rateWindow.start + 60_000 - now) / 1000));
    if (knobs.failWith === 429 || rateWindow.used >= limit) {
      const { code, message } = FAILURE_MESSAGES[429];
      return errorJson(429, code, message, rateHeaders(0, resetS));
    }
    rateWindow.used++;
    const headers = rateHeaders(limit - rateWindow.used, resetS);
    if (knobs.failWith) {
      const { code, message } = FAILURE_MESSAGES[knobs.failWith];
      return errorJson(knobs.failWith, code, message, headers);
    }
    return answer(route, url, headers);
  }

  function answer(route: Route, url: URL, headers: Record<string, string>): Response {
    if (route.region !== null && !VALID_REGIONS.has(route.region)) {
      return errorJson(400, 6, "Invalid region", headers);
    }
    const player = findPlayer(route.gameName, route.tag);
    if (!player) return errorJson(404, 22, "Account not found", headers);
    const rightShard = route.region === null || shard(route.region) === shard(player.region);
    return RESOURCES[route.name]({ player, url, headers, rightShard, now: clock.now(), anchor });
  }

  const server = Bun.serve({
    hostname: options.hostname ?? "127.0.0.1",
    port: options.port ?? 0,
    fetch: handle,
  });

  return {
    url: `http://${server.hostname}:${server.port}`,
    apiKey,
    knobs,
    calls,
    totalCalls: () => calls.account + calls.mmr + calls.mmrHistory + calls.matches,
    resetCalls() {
      for (const key of Object.keys(calls) as SimRoute[]) calls[key] = 0;
    },
    players: SEED_PLAYERS,
    async stop() {
      await server.stop(true);
    },
  };
}

/** `bun server/sim/game/server.ts`: run the simulator alone (match times follow the real clock). */
if (import.meta.main) {
  const sim = startGameSimulator({ anchor: "request", port: Number(process.env.PORT ?? 0) });
  console.log(`game provider simulator on ${sim.url} — key: ${sim.apiKey}`);
  console.log(`players: ${SEED_PLAYERS.map((p) => `${p.name}#${p.tag} (${p.region})`).join(", ")}`);
}
