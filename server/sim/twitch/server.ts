import { randomBytes } from "node:crypto";
import type { Server } from "bun";
import { type Clock, systemClock } from "../core/clock.ts";
import { createSimChat, type SimChat } from "./chat.ts";
import { createEventSub, type WsData } from "./eventsub.ts";
import {
  createHelixRoutes,
  type HelixRoute,
  helixError,
  json,
  newHelixState,
  REASONS,
  rfc3339,
} from "./helix.ts";
import { type SimStream, type SimUser, type SimWorld, seedWorld } from "./world.ts";

export { helixError } from "./helix.ts";

/**
 * A simulator of the identity provider (id.twitch.tv) and Helix (api.twitch.tv/helix) on loopback,
 * faithful to reference/twitch.md §1.9 and §2.0: form-encoded token requests, `scope` as an array,
 * `{status, message}` ID-service errors, single-use codes, rotating refresh tokens, Client-Id +
 * Bearer checks in twitch-cli's order, Helix error bodies `{error, status, message}` and
 * `Ratelimit-*` headers. Tests and `serve --demo` run cuebot's real clients against it. The Helix
 * endpoints themselves are in sim-helix.ts; this file is the server, the IdP and the middleware.
 */

export interface SimClient {
  id: string;
  secret: string;
  /** Exact redirect URIs; `"loopback"` accepts any http://localhost or 127.0.0.1 URI (demo mode). */
  redirectUris: string[] | "loopback";
}

interface AccessToken {
  clientId: string;
  userId: string | null;
  scopes: string[];
  expiresAt: number;
}

interface RefreshToken {
  clientId: string;
  userId: string;
  scopes: string[];
}

interface AuthCode {
  clientId: string;
  redirectUri: string;
  userId: string;
  scopes: string[];
  expiresAt: number;
}

/** Knobs tests turn to provoke the provider's failure modes. */
export interface TwitchSimKnobs {
  /** Approve authorize requests at once as this login (tests); null shows a consent page. */
  autoApproveAs: string | null;
  /** The user presses "Deny" (redirect with error=access_denied). */
  deny: boolean;
  /** Every endpoint answers 503 (the provider is down). */
  down: boolean;
  /** The next refresh-token grants fail with 400 Invalid refresh token. */
  failRefresh: boolean;
  /** Added to every response, in ms. */
  latencyMs: number;
  /**
   * Added to one Helix route's responses, in ms, on top of `latencyMs`; keyed like
   * `"POST /clips"` (method, space, Helix path without /helix). Provokes client timeouts.
   */
  routeLatencyMs: Map<string, number>;
  /**
   * Helix rate-limit bucket size and what is left of it. Every Helix request that passes
   * authentication costs 1 point; at 0 the answer is 429. The bucket fills up again when the clock
   * reaches the time sent in `Ratelimit-Reset` (a minute after the window began), so with a
   * ManualClock it stays empty until the test advances the clock.
   */
  rateLimit: { limit: number; remaining: number };
  /**
   * The next `times` authenticated calls of a Helix route (key like `"POST /clips"`) answer
   * `status` with a Helix error body; the entry is removed when used up.
   */
  failNext: Map<string, SimFailure>;
}

/** An injected Helix failure (see `TwitchSimKnobs.failNext`). */
export interface SimFailure {
  /** 409, 429, 500, 502 and 503 are the realistic ones (reference §2.0, §2.3, §2.9). */
  status: number;
  /** How many calls fail; 1 if omitted. */
  times?: number;
  /** Overrides the realistic default message for `status`. */
  message?: string;
}

/** What Twitch puts in `message` for the statuses tests inject (5xx bodies are often empty, §2.0). */
const FAILURE_MESSAGES: Record<number, string> = {
  409: "You may not update the user's ban state while someone else is updating the state. Please retry your request.",
  429: "Too Many Requests",
  500: "",
  502: "",
  503: "",
};

export interface TwitchSimulator {
  /** Base URL of the identity provider (CUEBOT_TWITCH_AUTH_URL). */
  authUrl: string;
  /** Base URL of Helix (CUEBOT_TWITCH_API_URL). */
  helixUrl: string;
  /** The EventSub WebSocket (CUEBOT_TWITCH_EVENTSUB_URL). */
  eventsubUrl: string;
  /** Chat: inject lines, see what was sent, provoke the transport's failure modes (chat.ts, eventsub.ts). */
  chat: SimChat;
  client: SimClient;
  world: SimWorld;
  knobs: TwitchSimKnobs;
  /** Requests served, by "METHOD /path". */
  calls: Map<string, number>;
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

const USER_TOKEN_TTL_S = 14_400;
const APP_TOKEN_TTL_S = 5_011_200;
const CODE_TTL_MS = 10 * 60_000;

/** A user-token grant's answer: `scope` as an array, `token_type` lowercase (reference §1.2). */
function userTokenResponse(
  issued: { accessToken: string; refreshToken: string },
  scopes: string[],
): Response {
  return json(200, {
    access_token: issued.accessToken,
    refresh_token: issued.refreshToken,
    expires_in: USER_TOKEN_TTL_S,
    scope: scopes,
    token_type: "bearer",
  });
}

/** ID-service errors carry `{status, message}` and usually no `error` key (reference §1.8). */
const idError = (status: number, message: string) => json(status, { status, message });

const token = (bytes = 15) => randomBytes(bytes).toString("base64url").toLowerCase().replace(/[-_]/g, "x");

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

async function readForm(request: Request, url: URL): Promise<URLSearchParams> {
  const form = new URLSearchParams(url.search);
  const type = request.headers.get("content-type") ?? "";
  if (request.method === "POST" && type.includes("application/x-www-form-urlencoded")) {
    for (const [k, v] of new URLSearchParams(await request.text())) form.set(k, v);
  }
  return form;
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

export function startTwitchSimulator(options: TwitchSimOptions = {}): TwitchSimulator {
  const clock = options.clock ?? systemClock;
  const world = options.world ?? seedWorld();
  const client: SimClient = {
    id: options.client?.id ?? "cuebotsimclient0000000000000000",
    secret: options.client?.secret ?? "cuebot-sim-secret",
    redirectUris: options.client?.redirectUris ?? "loopback",
  };
  const knobs: TwitchSimKnobs = {
    autoApproveAs: null,
    deny: false,
    down: false,
    failRefresh: false,
    latencyMs: 0,
    routeLatencyMs: new Map(),
    rateLimit: { limit: 800, remaining: 800 },
    failNext: new Map(),
  };
  const helixState = newHelixState();
  const helixRoutes = createHelixRoutes({ world, clock, state: helixState });
  let wsBase = "";
  const eventsub = createEventSub({
    clock,
    secondMs: options.eventsubSecondMs ?? 1000,
    pingMs: options.eventsubPingMs ?? 5000,
    wsUrl: () => wsBase,
    isBanned: (broadcasterId, userId) => chat.isBanned(broadcasterId, userId),
    userExists: (id) => world.users.some((u) => u.id === id),
    killTokens: (userId) => disconnectUser(userId),
  });
  const chat = createSimChat({ world, clock, eventsub });
  for (const [key, route] of [...eventsub.routes, ...chat.routes]) helixRoutes.set(key, route);
  /** When the rate-limit bucket is full again (ms); the window starts with the simulator. */
  let bucketResetAt = clock.now() + 60_000;
  const calls = new Map<string, number>();
  const accessTokens = new Map<string, AccessToken>();
  const refreshTokens = new Map<string, RefreshToken>();
  const codes = new Map<string, AuthCode>();
  const revoked = new Set<string>();

  const findUser = (login: string) => world.users.find((u) => u.login === login.toLowerCase());
  const userById = (id: string) => world.users.find((u) => u.id === id);

  const issue = (clientId: string, userId: string, scopes: string[]) => {
    const accessToken = token();
    const refreshToken = `${token(25)}/${token(4)}=`;
    accessTokens.set(accessToken, {
      clientId,
      userId,
      scopes,
      expiresAt: clock.now() + USER_TOKEN_TTL_S * 1000,
    });
    refreshTokens.set(refreshToken, { clientId, userId, scopes });
    return { accessToken, refreshToken };
  };

  const redirectAllowed = (uri: string) => {
    if (client.redirectUris === "loopback") {
      try {
        const u = new URL(uri);
        return u.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(u.hostname);
      } catch {
        return false;
      }
    }
    return client.redirectUris.includes(uri);
  };

  function authorize(url: URL): Response {
    const clientId = url.searchParams.get("client_id");
    const redirectUri = url.searchParams.get("redirect_uri") ?? "";
    if (clientId !== client.id) return idError(400, "invalid client");
    if (!redirectAllowed(redirectUri))
      return idError(400, "Parameter redirect_uri does not match registered URI");
    if (url.searchParams.get("response_type") !== "code") return idError(400, "invalid response type");
    const as = url.searchParams.get("as") ?? knobs.autoApproveAs;
    const decision = url.searchParams.get("decision") ?? (knobs.deny ? "deny" : as ? "approve" : null);
    const state = url.searchParams.get("state");
    const back = new URL(redirectUri);
    if (decision === "deny") {
      back.searchParams.set("error", "access_denied");
      back.searchParams.set("error_description", "The user denied you access");
      if (state !== null) back.searchParams.set("state", state);
      return Response.redirect(back.href, 302);
    }
    const scopes = (url.searchParams.get("scope") ?? "").split(/[ +]/).filter(Boolean);
    const user = as ? findUser(as) : undefined;
    if (decision === "approve" && user) {
      const code = token(20);
      codes.set(code, {
        clientId: client.id,
        redirectUri,
        userId: user.id,
        scopes,
        expiresAt: clock.now() + CODE_TTL_MS,
      });
      back.searchParams.set("code", code);
      back.searchParams.set("scope", scopes.join(" "));
      if (state !== null) back.searchParams.set("state", state);
      return Response.redirect(back.href, 302);
    }
    return consentPage(url, scopes);
  }

  /** What a person sees in demo mode: pick a simulated account, or deny. */
  function consentPage(url: URL, scopes: string[]): Response {
    const link = (extra: Record<string, string>) => {
      const u = new URL(url.href);
      for (const [k, v] of Object.entries(extra)) u.searchParams.set(k, v);
      return escapeHtml(`${u.pathname}${u.search}`);
    };
    const rows = world.users
      .map(
        (u) =>
          `<li><a class="approve" href="${link({ as: u.login, decision: "approve" })}">Authorize as <b>${escapeHtml(u.display_name)}</b></a></li>`,
      )
      .join("");
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Simulated Twitch — authorize</title>
<style>body{font:16px system-ui;max-width:40rem;margin:3rem auto;padding:0 1rem}a{color:#9146ff}li{margin:.5rem 0}</style></head>
<body><h1>Simulated Twitch</h1><p>This is cuebot's built-in identity provider simulator (demo mode). The app asks for:</p>
<p><code>${escapeHtml(scopes.join(" "))}</code></p><ul>${rows}</ul>
<p><a id="deny" href="${link({ decision: "deny" })}">Deny</a></p></body></html>`;
    return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
  }

  function tokenGrant(form: URLSearchParams): Response {
    const grant = form.get("grant_type");
    const clientId = form.get("client_id");
    if (!clientId) return idError(400, "missing client id");
    if (clientId !== client.id) return idError(400, "invalid client");
    const secret = form.get("client_secret");
    if (!secret) return idError(400, "missing client secret");
    if (secret !== client.secret) return idError(403, "invalid client secret");
    if (grant === "authorization_code") {
      const code = form.get("code") ?? "";
      const entry = codes.get(code);
      codes.delete(code); // single use, even when the rest of the request is wrong
      if (!entry || entry.expiresAt < clock.now() || entry.clientId !== clientId) {
        return idError(400, "Invalid authorization code");
      }
      if (form.get("redirect_uri") !== entry.redirectUri) {
        return idError(400, "Parameter redirect_uri does not match registered URI");
      }
      const issued = issue(clientId, entry.userId, entry.scopes);
      return userTokenResponse(issued, entry.scopes);
    }
    if (grant === "refresh_token") {
      const presented = form.get("refresh_token");
      if (!presented) return idError(400, "missing refresh token");
      const entry = refreshTokens.get(presented);
      if (!entry || knobs.failRefresh) {
        return json(400, { error: "Bad Request", status: 400, message: "Invalid refresh token" });
      }
      refreshTokens.delete(presented); // rotation: the old refresh token dies
      const issued = issue(clientId, entry.userId, entry.scopes);
      return userTokenResponse(issued, entry.scopes);
    }
    if (grant === "client_credentials") {
      const accessToken = token();
      accessTokens.set(accessToken, {
        clientId,
        userId: null,
        scopes: [],
        expiresAt: clock.now() + APP_TOKEN_TTL_S * 1000,
      });
      return json(200, { access_token: accessToken, expires_in: APP_TOKEN_TTL_S, token_type: "bearer" });
    }
    return idError(400, "unsupported grant type");
  }

  function validate(request: Request): Response {
    const header = request.headers.get("authorization") ?? "";
    const match = /^(OAuth|Bearer) (.+)$/i.exec(header);
    if (!match) return idError(401, "missing authorization token");
    const entry = accessTokens.get(match[2]!);
    if (!entry || entry.expiresAt <= clock.now()) return idError(401, "invalid access token");
    const user = entry.userId ? userById(entry.userId) : undefined;
    return json(200, {
      client_id: entry.clientId,
      ...(user ? { login: user.login, user_id: user.id } : {}),
      scopes: entry.scopes,
      expires_in: Math.max(0, Math.floor((entry.expiresAt - clock.now()) / 1000)),
    });
  }

  function revoke(form: URLSearchParams): Response {
    const clientId = form.get("client_id");
    if (clientId !== client.id) return idError(404, "client does not exist");
    const presented = form.get("token");
    if (!presented) return idError(400, "missing oauth token");
    if (!accessTokens.has(presented) && !refreshTokens.has(presented)) return idError(400, "Invalid token");
    const entry = accessTokens.get(presented);
    accessTokens.delete(presented);
    refreshTokens.delete(presented);
    revoked.add(presented);
    // Revoking the access token ends the grant: its refresh tokens die too.
    if (entry?.userId) {
      for (const [k, v] of refreshTokens)
        if (v.userId === entry.userId && v.clientId === entry.clientId) refreshTokens.delete(k);
    }
    return new Response(null, { status: 200 });
  }

  /** Twitch refills continuously (§2.0); a whole-minute window is enough for clients that wait for Reset. */
  function refillBucket(): void {
    if (clock.now() < bucketResetAt) return;
    knobs.rateLimit.remaining = knobs.rateLimit.limit;
    bucketResetAt = clock.now() + 60_000;
  }

  function rateLimitHeaders(): Record<string, string> {
    return {
      "Ratelimit-Limit": String(knobs.rateLimit.limit),
      "Ratelimit-Remaining": String(Math.max(0, knobs.rateLimit.remaining)),
      "Ratelimit-Reset": String(Math.ceil(bucketResetAt / 1000)),
    };
  }

  /** Helix authentication in twitch-cli's order (reference §3.3), with real Twitch's status codes. */
  function helixAuth(request: Request): { entry: AccessToken; token: string } | Response {
    const clientHeader = request.headers.get("client-id");
    const auth = request.headers.get("authorization") ?? "";
    if (!clientHeader || !auth.startsWith("Bearer ") || auth.length < 8) {
      return helixError(401, "OAuth token is missing", rateLimitHeaders());
    }
    const presented = auth.slice(7);
    const entry = accessTokens.get(presented);
    if (!entry) return helixError(401, "Invalid OAuth token", rateLimitHeaders());
    if (entry.clientId !== clientHeader) {
      return helixError(401, "Client ID and OAuth token do not match", rateLimitHeaders());
    }
    if (entry.expiresAt <= clock.now()) return helixError(401, "Invalid OAuth token", rateLimitHeaders());
    return { entry, token: presented };
  }

  /** The Helix route's key ("POST /clips") for a request, or null outside /helix. */
  const helixKey = (request: Request, url: URL) =>
    url.pathname.startsWith("/helix/") ? `${request.method} ${url.pathname.slice("/helix".length)}` : null;

  function disconnectUser(userId: string): void {
    for (const [k, v] of accessTokens) if (v.userId === userId) accessTokens.delete(k);
    for (const [k, v] of refreshTokens) if (v.userId === userId) refreshTokens.delete(k);
  }

  async function handle(request: Request, server: Server<WsData>): Promise<Response | undefined> {
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
    if (url.pathname === "/oauth2/authorize" && request.method === "GET") return authorize(url);
    if (url.pathname === "/oauth2/token") {
      if (request.method !== "POST") return new Response("404 page not found", { status: 404 });
      return tokenGrant(await readForm(request, url));
    }
    if (url.pathname === "/oauth2/validate" && request.method === "GET") return validate(request);
    if (url.pathname === "/oauth2/revoke" && request.method === "POST")
      return revoke(await readForm(request, url));
    if (routeKey) {
      const response = await helix(request, url, routeKey);
      if (routeKey !== "POST /chat/messages") {
        for (const [k, v] of Object.entries(rateLimitHeaders())) response.headers.set(k, v);
      }
      return response;
    }
    return idError(404, "Not Found");
  }

  /** Auth, bucket, route, token kind, scope, injected failure, then the endpoint (sim-helix.ts). */
  async function helix(request: Request, url: URL, routeKey: string): Promise<Response> {
    refillBucket();
    const authed = helixAuth(request);
    if (authed instanceof Response) return authed;
    // Send Chat Message has its own, larger bucket (reference/twitch-chat.md §4), kept in chat.ts.
    const ownBucket = routeKey === "POST /chat/messages";
    if (!ownBucket) {
      if (knobs.rateLimit.remaining <= 0) return helixError(429, "Too Many Requests");
      knobs.rateLimit.remaining -= 1;
    }
    const route: HelixRoute | undefined = helixRoutes.get(routeKey);
    if (!route) return helixError(404, "Not Found");
    const { entry } = authed;
    if (route.userToken && !entry.userId) return helixError(401, "Missing User OAUTH Token");
    if (route.scopes.length > 0 && !route.scopes.some((s) => entry.scopes.includes(s))) {
      // Twitch names one scope ("Missing scope: moderator:manage:banned_users", reference §2.0); for
      // any-of routes it is the first, primary one the reference lists.
      return helixError(401, `Missing scope: ${route.scopes[0]}`);
    }
    const failure = knobs.failNext.get(routeKey);
    if (failure) {
      const left = (failure.times ?? 1) - 1;
      if (left > 0) failure.times = left;
      else knobs.failNext.delete(routeKey);
      return helixError(
        failure.status,
        failure.message ?? FAILURE_MESSAGES[failure.status] ?? REASONS[failure.status] ?? "",
      );
    }
    return route.handle({
      request,
      url,
      query: url.searchParams,
      caller: { userId: entry.userId, scopes: entry.scopes },
    });
  }

  const server: Server<WsData> = Bun.serve<WsData>({
    hostname: "127.0.0.1",
    port: options.port ?? 0,
    fetch: handle,
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
    issueUserToken(login, scopes) {
      const u = findUser(login);
      if (!u) throw new Error(`no simulated user ${login}`);
      return issue(client.id, u.id, scopes);
    },
    expireAccessToken(t) {
      const entry = accessTokens.get(t);
      if (entry) entry.expiresAt = clock.now() - 1;
    },
    disconnectUser,
    wasRevoked: (t) => revoked.has(t),
    findUser,
    setLive(userId, live, overrides = {}) {
      if (!userById(userId)) throw new Error(`no simulated user ${userId}`);
      const at = world.streams.findIndex((s) => s.user_id === userId);
      if (!live) {
        if (at >= 0) world.streams.splice(at, 1);
        return;
      }
      const current = at >= 0 ? world.streams[at] : undefined;
      if (current) {
        // Already live: the stream (and its uptime) continues; only the overrides change.
        Object.assign(current, overrides);
        return;
      }
      const channel = world.channels.find((c) => c.broadcaster_id === userId);
      world.streams.push({
        id: String(helixState.nextStreamId++),
        user_id: userId,
        game_id: channel?.game_id ?? "",
        game_name: channel?.game_name ?? "",
        title: channel?.title ?? "",
        tags: [...(channel?.tags ?? [])],
        viewer_count: 1,
        started_at: rfc3339(clock.now()),
        language: channel?.broadcaster_language ?? "en",
        ...overrides,
      });
    },
    helixRoutes: () => [...helixRoutes.keys()],
    async stop() {
      eventsub.stop();
      await server.stop(true);
    },
  };
}
