import type { Server } from "bun";
import { type Clock, systemClock } from "../../core/clock.ts";
import { createSimChat, type SimChat } from "./chat/chat.ts";
import { createEventSub } from "./eventsub/eventsub.ts";
import type { WsData } from "./eventsub/state.ts";
import { helixError, json } from "./helix/http.ts";
import { createHelixMiddleware, type HelixHandler } from "./helix/middleware.ts";
import { type HelixEnvironment, newHelixState } from "./helix/route.ts";
import { createHelixRoutes } from "./helix/router.ts";
import { setLive } from "./helix/streams.ts";
import { newTwitchSimKnobs, type TwitchSimKnobs } from "./knobs.ts";
import { findUser, handleOAuth, type IdentityProvider, idError, type SimClient } from "./oauth.ts";
import { newTwitchSimStats, type TwitchSimStats } from "./stats.ts";
import { TokenStore } from "./tokens.ts";
import { type SimStream, type SimUser, type SimWorld, seedWorld } from "./world.ts";

/**
 * A simulator of the identity provider (id.twitch.tv), Helix (api.twitch.tv/helix) and EventSub on
 * loopback, faithful to reference/twitch.md §1.9 and §2.0. Tests and `serve --demo` run cuebot's real
 * clients against it. This file is the server: it starts the parts and routes each request to the
 * `/_sim/` controls (chat/control.ts, eventsub/control.ts), the ID service (oauth.ts) or Helix
 * (helix/middleware.ts, then the resources assembled in helix/router.ts).
 */

export interface TwitchSimulator {
  /** Base URL of the identity provider (CUEBOT_TWITCH_AUTH_URL). */
  authUrl: string;
  /** Base URL of Helix (CUEBOT_TWITCH_API_URL). */
  helixUrl: string;
  /** The EventSub WebSocket (CUEBOT_TWITCH_EVENTSUB_URL). */
  eventsubUrl: string;
  /** Chat: inject lines, see what was sent, provoke the transport's failure modes (chat/, eventsub/). */
  chat: SimChat;
  client: SimClient;
  world: SimWorld;
  knobs: TwitchSimKnobs;
  /** Requests served, by "METHOD /path". */
  calls: Map<string, number>;
  /** Limits hit: 429s by Helix route, Send Chat Message drops by reason (stats.ts). */
  stats: TwitchSimStats;
  /** Issues a user access token directly (tests that skip the browser dance). */
  issueUserToken(login: string, scopes: string[]): { accessToken: string; refreshToken: string };
  /** Expires one access token now (it stops validating; its refresh token still works). */
  expireAccessToken(token: string): void;
  /** The user disconnects the app: every token of theirs dies, refresh tokens included. */
  disconnectUser(userId: string): void;
  /** Whether a token was revoked through /oauth2/revoke. */
  wasRevoked(token: string): boolean;
  findUser(login: string): SimUser | undefined;
  /**
   * Starts or ends a broadcaster's stream. Going live builds the stream from the channel's title,
   * game and language, started now by the simulator's clock, with `overrides` on top (viewer_count
   * defaults to 1: Send a Shoutout refuses a channel without viewers). Going offline removes it.
   */
  setLive(userId: string, live: boolean, overrides?: Partial<Omit<SimStream, "user_id">>): void;
  /** The Helix routes served, as "METHOD /path" keys (for knobs and coverage checks). */
  helixRoutes(): string[];
  stop(): Promise<void>;
}

export interface TwitchSimOptions {
  clock?: Clock;
  client?: Partial<SimClient>;
  world?: SimWorld;
  port?: number;
  /** How long one EventSub "second" lasts for the transport's timers, in ms (tests shorten it). */
  eventsubSecondMs?: number;
  /**
   * How often EventSub sockets are pinged, in real ms (5000, as twitch-cli); a Ping still without its
   * Pong two intervals later is 4002.
   */
  eventsubPingMs?: number;
}

/**
 * twitch-cli's path layout, which twurple's mock mode (`TWURPLE_MOCK_API_PORT`) uses for every call
 * (reference/twitch-chat.md §8): Helix under `/mock/`, the ID service under `/auth/`, and the
 * subscription API at the root. Each maps to the real layout served here.
 */
const TWITCH_CLI_PATHS: [prefix: string, real: string][] = [
  ["/mock/", "/helix/"],
  ["/auth/", "/oauth2/"],
  ["/eventsub/", "/helix/eventsub/"],
];

function canonicalPath(pathname: string): string {
  for (const [prefix, real] of TWITCH_CLI_PATHS) {
    if (pathname.startsWith(prefix)) return real + pathname.slice(prefix.length);
  }
  return pathname;
}

/**
 * 415 for a `/_sim/` call other than GET or HEAD that is not sent as `application/json`: a web page in
 * the demo user's browser may POST text/plain (or a form) to the loopback port without a CORS
 * preflight, never application/json, so no page can reach the controls.
 */
function refuseSimBody(request: Request): Response | null {
  if (request.method === "GET" || request.method === "HEAD") return null;
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  return type === "application/json" ? null : json(415, { error: "Content-Type must be application/json" });
}

/** The Helix route's key ("POST /clips") for a request, or null outside /helix. */
const helixKey = (request: Request, url: URL) =>
  url.pathname.startsWith("/helix/") ? `${request.method} ${url.pathname.slice("/helix".length)}` : null;

interface Parts {
  idp: IdentityProvider;
  helix: HelixHandler;
  chat: SimChat;
  eventsub: ReturnType<typeof createEventSub>;
  calls: Map<string, number>;
}

/** One HTTP request: the socket, the `/_sim/` controls, then (after latency and `down`) IdP or Helix. */
async function handle(parts: Parts, request: Request, server: Server<WsData>): Promise<Response | undefined> {
  const { idp, chat, eventsub, calls } = parts;
  const { knobs } = idp;
  const url = new URL(request.url);
  if (url.pathname === "/ws") return eventsub.upgrade(request, server);
  if (url.pathname.startsWith("/_sim/")) {
    return (
      refuseSimBody(request) ??
      (await chat.handleSimHttp(request, url)) ??
      (await eventsub.handleSimHttp(request, url)) ??
      idError(404, "Not Found")
    );
  }
  url.pathname = canonicalPath(url.pathname);
  const key = `${request.method} ${url.pathname}`;
  calls.set(key, (calls.get(key) ?? 0) + 1);
  const routeKey = helixKey(request, url);
  const delay = knobs.latencyMs + (routeKey ? (knobs.routeLatencyMs.get(routeKey) ?? 0) : 0);
  if (delay > 0) await Bun.sleep(delay);
  if (knobs.down) {
    return url.pathname.startsWith("/helix/") ? helixError(503, "") : idError(503, "Service Unavailable");
  }
  const oauth = await handleOAuth(idp, request, url);
  if (oauth) return oauth;
  if (routeKey) return parts.helix(request, url, routeKey);
  return idError(404, "Not Found");
}

export function startTwitchSimulator(options: TwitchSimOptions = {}): TwitchSimulator {
  const clock = options.clock ?? systemClock;
  const world = options.world ?? seedWorld();
  const client: SimClient = {
    id: options.client?.id ?? "cuebotsimclient0000000000000000",
    secret: options.client?.secret ?? "cuebot-sim-secret",
    redirectUris: options.client?.redirectUris ?? "loopback",
  };
  const knobs = newTwitchSimKnobs(clock);
  const tokens = new TokenStore(clock);
  const stats = newTwitchSimStats();
  const helixEnv: HelixEnvironment = {
    world,
    clock,
    state: newHelixState(),
    onBan: (broadcasterId, userId) => chat.clearUser(broadcasterId, userId),
  };
  const routes = createHelixRoutes(helixEnv);
  let wsBase = "";
  const eventsub = createEventSub({
    clock,
    secondMs: options.eventsubSecondMs ?? 1000,
    pingMs: options.eventsubPingMs ?? 5000,
    wsUrl: () => wsBase,
    isBanned: (broadcasterId, userId) => chat.isBanned(broadcasterId, userId),
    userExists: (id) => world.users.some((u) => u.id === id),
    isModerator: (broadcasterId, userId) => (world.moderators.get(broadcasterId) ?? []).includes(userId),
    users: () => world.users,
    killTokens: (userId) => tokens.disconnectUser(userId),
  });
  const chat = createSimChat({ world, clock, eventsub, stats });
  for (const [key, route] of [...eventsub.routes, ...chat.routes]) routes.set(key, route);
  const idp: IdentityProvider = { client, world, clock, knobs, tokens };
  const helix = createHelixMiddleware({ clock, knobs, tokens, routes, stats });
  const calls = new Map<string, number>();
  const parts: Parts = { idp, helix, chat, eventsub, calls };

  const server: Server<WsData> = Bun.serve<WsData>({
    hostname: "127.0.0.1",
    port: options.port ?? 0,
    fetch: (request, server) => handle(parts, request, server),
    websocket: eventsub.websocket,
  });
  const base = `http://127.0.0.1:${server.port}`;
  wsBase = `ws://127.0.0.1:${server.port}/ws`;

  return {
    authUrl: base,
    helixUrl: `${base}/helix`,
    eventsubUrl: wsBase,
    chat,
    client,
    world,
    knobs,
    calls,
    stats,
    issueUserToken(login, scopes) {
      const u = findUser(world, login);
      if (!u) throw new Error(`no simulated user ${login}`);
      return tokens.issueUser(client.id, u.id, scopes);
    },
    expireAccessToken: (t) => tokens.expire(t),
    disconnectUser: (userId) => tokens.disconnectUser(userId),
    wasRevoked: (t) => tokens.revoked.has(t),
    findUser: (login) => findUser(world, login),
    setLive: (userId, live, overrides = {}) => setLive(helixEnv, userId, live, overrides),
    helixRoutes: () => [...routes.keys()],
    async stop() {
      eventsub.stop();
      await server.stop(true);
    },
  };
}
