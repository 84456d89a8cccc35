import { randomBytes } from "node:crypto";
import type { Clock } from "../core/clock.ts";
import type { SimBan, SimClip, SimStream, SimUser, SimWorld } from "./world.ts";

/**
 * The simulated Helix endpoints, one handler per "METHOD /path", with real Twitch's semantics
 * (reference/twitch.md §2) rather than twitch-cli's mock (§3.4 lists where the mock deviates).
 * Authentication (Client-Id, Bearer, expiry), the rate-limit bucket and the failure knobs live in
 * sim.ts; a route here declares whether it needs a user token and which scopes it accepts, and the
 * handler does the rest: parameter checks (400), identity checks (401/403), state rules and paging.
 */

export const REASONS: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  410: "Gone",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
};

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** Helix errors: `{error: <reason phrase>, status, message}` (reference §2.0). */
export const helixError = (status: number, message: string, headers: Record<string, string> = {}) =>
  json(status, { error: REASONS[status] ?? "Error", status, message }, headers);

const noContent = () => new Response(null, { status: 204 });

/** A request's JSON body when it is an object; null for anything else (bad JSON, arrays, scalars). */
export async function readJsonObject(request: Request): Promise<Record<string, unknown> | null> {
  try {
    const body: unknown = await request.json();
    return typeof body === "object" && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** The caller, as the auth middleware resolved it from the bearer token. */
export interface HelixCaller {
  /** null for an app access token. */
  userId: string | null;
  scopes: readonly string[];
}

export interface HelixCall {
  request: Request;
  url: URL;
  query: URLSearchParams;
  caller: HelixCaller;
}

export interface HelixRoute {
  /** App access tokens are refused with 401 (the endpoint documents "requires a user access token"). */
  userToken: boolean;
  /**
   * Any one of these scopes is enough (Twitch documents e.g. "moderation:read or
   * channel:manage:moderators"); empty = no scope needed. Checked by the middleware after the token.
   */
  scopes: readonly string[];
  handle(call: HelixCall): Response | Promise<Response>;
}

/** Mutable simulator state that is not part of the seeded world: cooldown clocks, id counters. */
export interface HelixState {
  /** from_broadcaster_id → when it last sent a Shoutout (ms). */
  shoutoutSentAt: Map<string, number>;
  /** "from>to" → when `from` last shouted out `to` (ms). */
  shoutoutPairAt: Map<string, number>;
  /** Streams started by setLive get ids from here. */
  nextStreamId: number;
}

export function newHelixState(): HelixState {
  return { shoutoutSentAt: new Map(), shoutoutPairAt: new Map(), nextStreamId: 4_000_000_100 };
}

/** RFC 3339 without milliseconds, as Helix writes timestamps (reference §2.0). */
export const rfc3339 = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** Shoutout rate limits from the endpoint's description: 2 min per sender, 60 min per target. */
export const SHOUTOUT_SENDER_COOLDOWN_MS = 2 * 60_000;
export const SHOUTOUT_TARGET_COOLDOWN_MS = 60 * 60_000;
/** Longest timeout: 1 209 600 s = 2 weeks (BanUserBody.duration). */
export const MAX_TIMEOUT_S = 1_209_600;
/** Subscriber points per tier (reference §2.12). */
const TIER_POINTS: Record<string, number> = { "1000": 1, "2000": 2, "3000": 6 };

// ---------------------------------------------------------------------------------------------
// Paging. Cursors are opaque to clients; like Twitch's own (the reference's example cursor
// "eyJiIjpudWxsLCJhIjp7Ik9mZnNldCI6NX19" is base64 of {"b":null,"a":{"Offset":5}}) one cursor
// carries both directions: `a` is where the next page starts, `b` where the current page began,
// so the same value works with `after` and, where documented, `before`.
// ---------------------------------------------------------------------------------------------

export interface Pagination {
  cursor?: string;
}

interface Cursor {
  before: number;
  after: number;
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(
    JSON.stringify({ b: { Offset: cursor.before }, a: { Offset: cursor.after } }),
    "utf8",
  ).toString("base64url");
}

export function decodeCursor(raw: string): Cursor | null {
  try {
    const parsed = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as {
      b?: { Offset?: unknown } | null;
      a?: { Offset?: unknown } | null;
    };
    const before = parsed.b?.Offset;
    const after = parsed.a?.Offset;
    if (!Number.isInteger(before) || !Number.isInteger(after)) return null;
    if ((before as number) < 0 || (after as number) < 0) return null;
    return { before: before as number, after: after as number };
  } catch {
    return null;
  }
}

/** `first` within [1, max], default `def`; anything else is a 400 (twitch-cli silently defaults). */
function parseFirst(query: URLSearchParams, max: number, def: number): number | Response {
  const raw = query.get("first");
  if (raw === null || raw === "") return def;
  const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > max) {
    return helixError(
      400,
      `The parameter "first" was malformed: the value must be greater than or equal to 1 and less than or equal to ${max}`,
    );
  }
  return n;
}

interface PageOptions {
  max: number;
  def: number;
  /** The endpoint documents a `before` cursor. */
  before?: boolean;
}

/**
 * One page of `items`. `pagination` is `{cursor}` while there is more in the direction of travel
 * and `{}` at the end — never omitted (twitch-cli omits it, reference §3.4).
 */
function paginate<T>(
  items: readonly T[],
  query: URLSearchParams,
  options: PageOptions,
): { data: T[]; pagination: Pagination } | Response {
  const first = parseFirst(query, options.max, options.def);
  if (first instanceof Response) return first;
  const after = query.get("after") || null;
  const before = options.before ? query.get("before") || null : null;
  if (after && before) return helixError(400, "The after and before parameters are mutually exclusive");
  let start = 0;
  let end: number;
  let more: boolean;
  if (before) {
    const cursor = decodeCursor(before);
    if (!cursor) return helixError(400, "The before cursor is not valid");
    end = Math.min(cursor.before, items.length);
    start = Math.max(0, end - first);
    more = start > 0;
  } else {
    if (after) {
      const cursor = decodeCursor(after);
      if (!cursor) return helixError(400, "The after cursor is not valid");
      start = cursor.after;
    }
    end = Math.min(items.length, start + first);
    more = end < items.length;
  }
  const data = items.slice(start, Math.max(start, end));
  return { data, pagination: more ? { cursor: encodeCursor({ before: start, after: end }) } : {} };
}

// ---------------------------------------------------------------------------------------------
// The routes.
// ---------------------------------------------------------------------------------------------

export interface HelixEnvironment {
  world: SimWorld;
  clock: Clock;
  state: HelixState;
}

/** Helix's list parameters are repeated (`id=1&id=2`, reference §2.0); empty values are ignored. */
const all = (query: URLSearchParams, name: string) => query.getAll(name).filter((v) => v !== "");

const missing = (name: string) => helixError(400, `Missing required parameter "${name}"`);

const tooMany = (name: string) =>
  helixError(400, `The number of ${name} query parameters exceeds the maximum allowed (100)`);

/** Where Twitch observed-ly words an unknown or malformed id on moderation routes (reference §2.9). */
const INVALID_IDS = "One of broadcaster ID, user ID or the moderator ID is invalid.";

export function createHelixRoutes(env: HelixEnvironment): Map<string, HelixRoute> {
  const { world, clock, state } = env;

  const userById = (id: string): SimUser | undefined => world.users.find((u) => u.id === id);
  const userRef = (id: string) => {
    const u = userById(id);
    return { id, login: u?.login ?? "", name: u?.display_name ?? "" };
  };
  const isModerator = (broadcasterId: string, userId: string) =>
    (world.moderators.get(broadcasterId) ?? []).includes(userId);
  /** The broadcaster or one of their moderators: who may act as `moderator_id`. */
  const canModerate = (broadcasterId: string, userId: string) =>
    broadcasterId === userId || isModerator(broadcasterId, userId);
  const streamOf = (userId: string): SimStream | undefined => world.streams.find((s) => s.user_id === userId);

  /** Timeouts end by the clock; an expired one is no ban at all. */
  const isActive = (ban: SimBan) => ban.expires_at === null || Date.parse(ban.expires_at) > clock.now();
  const activeBan = (broadcasterId: string, userId: string) =>
    world.bans.find((b) => b.broadcaster_id === broadcasterId && b.user_id === userId && isActive(b));

  /** In place, so a test holding `world.bans` sees the change. Expired timeouts go too. */
  const removeBans = (broadcasterId: string, userId: string) => {
    for (let i = world.bans.length - 1; i >= 0; i--) {
      const b = world.bans[i]!;
      if (b.broadcaster_id === broadcasterId && b.user_id === userId) world.bans.splice(i, 1);
    }
  };

  /** `broadcaster_id` must be the token's user (Get Moderators/VIPs/Subscriptions/Banned Users). */
  function ownChannel(call: HelixCall): string | Response {
    const broadcasterId = call.query.get("broadcaster_id");
    if (!broadcasterId) return missing("broadcaster_id");
    if (broadcasterId !== call.caller.userId) {
      return helixError(
        401,
        "The ID in broadcaster_id must match the user ID found in the request's OAuth token.",
      );
    }
    return broadcasterId;
  }

  /** `moderator_id` must be the token's user (401) and the broadcaster or one of its mods (403). */
  function actingModerator(call: HelixCall, broadcasterId: string): string | Response {
    const moderatorId = call.query.get("moderator_id");
    if (!moderatorId) return missing("moderator_id");
    if (moderatorId !== call.caller.userId) {
      return helixError(401, "The ID in moderator_id must match the user ID in the user access token.");
    }
    if (!userById(broadcasterId)) return helixError(400, INVALID_IDS);
    if (!canModerate(broadcasterId, moderatorId)) {
      return helixError(403, "The user in moderator_id is not one of the broadcaster's moderators.");
    }
    return moderatorId;
  }

  const routes = new Map<string, HelixRoute>();
  const route = (key: string, r: HelixRoute) => routes.set(key, r);

  // §2.1 Get Users.
  route("GET /users", {
    userToken: false,
    scopes: [],
    handle({ query, caller }) {
      const ids = all(query, "id");
      const logins = all(query, "login").map((l) => l.toLowerCase());
      if (ids.length + logins.length > 100) {
        return helixError(400, "The number of id and login parameters exceeds 100");
      }
      let found: SimUser[];
      if (ids.length === 0 && logins.length === 0) {
        if (!caller.userId) return helixError(400, "The id or login query parameter is required");
        found = world.users.filter((u) => u.id === caller.userId);
      } else {
        found = world.users.filter((u) => ids.includes(u.id) || logins.includes(u.login));
      }
      const data = found.map((u) => {
        const { email, ...rest } = u;
        // email only for the token's own user, and only with user:read:email.
        return u.id === caller.userId && caller.scopes.includes("user:read:email")
          ? { ...rest, email }
          : rest;
      });
      return json(200, { data });
    },
  });

  // §2.14 Get Channel Information: works offline (title/game are the last values).
  route("GET /channels", {
    userToken: false,
    scopes: [],
    handle({ query, caller }) {
      const ids = all(query, "broadcaster_id");
      if (ids.length === 0) return missing("broadcaster_id");
      if (ids.length > 100) return tooMany("broadcaster_id");
      const wanted = [...new Set(ids)];
      const data = wanted.flatMap((id) => {
        const channel = world.channels.find((c) => c.broadcaster_id === id);
        const owner = userById(id);
        if (!channel || !owner) return [];
        return [
          {
            broadcaster_id: id,
            broadcaster_login: owner.login,
            broadcaster_name: owner.display_name,
            broadcaster_language: channel.broadcaster_language,
            game_name: channel.game_name,
            game_id: channel.game_id,
            title: channel.title,
            // The stream delay is only disclosed to the broadcaster's own token (reference §2.14).
            delay: caller.userId === id ? channel.delay : 0,
            tags: channel.tags,
            content_classification_labels: channel.content_classification_labels,
            is_branded_content: channel.is_branded_content,
          },
        ];
      });
      return json(200, { data });
    },
  });

  // §2.13 Get Streams: only live channels; an offline broadcaster yields nothing.
  route("GET /streams", {
    userToken: false,
    scopes: [],
    handle({ query }) {
      const type = query.get("type") ?? "all";
      if (type !== "all" && type !== "live")
        return helixError(400, "The value in the type query parameter is not valid.");
      const ids = all(query, "user_id");
      const logins = all(query, "user_login").map((l) => l.toLowerCase());
      const games = all(query, "game_id");
      const languages = all(query, "language");
      for (const [name, list] of [
        ["user_id", ids],
        ["user_login", logins],
        ["game_id", games],
        ["language", languages],
      ] as const) {
        if (list.length > 100) return tooMany(name);
      }
      const byUser = ids.length > 0 || logins.length > 0;
      const streams = world.streams
        .filter((s) => {
          const owner = userById(s.user_id);
          if (byUser && !ids.includes(s.user_id) && !(owner && logins.includes(owner.login))) return false;
          if (games.length > 0 && !games.includes(s.game_id)) return false;
          if (languages.length > 0 && !languages.includes(s.language)) return false;
          return true;
        })
        // Helix lists the most-watched streams first.
        .sort((a, b) => b.viewer_count - a.viewer_count);
      const page = paginate(streams, query, { max: 100, def: 20, before: true });
      if (page instanceof Response) return page;
      const data = page.data.map((s) => {
        const owner = userRef(s.user_id);
        return {
          id: s.id,
          user_id: s.user_id,
          user_login: owner.login,
          user_name: owner.name,
          game_id: s.game_id,
          game_name: s.game_name,
          type: "live",
          title: s.title,
          tags: s.tags,
          viewer_count: s.viewer_count,
          started_at: s.started_at,
          language: s.language,
          thumbnail_url: `https://static-cdn.jtvnw.net/previews-ttv/live_user_${encodeURIComponent(owner.login)}-{width}x{height}.jpg`,
          tag_ids: [],
          is_mature: false,
        };
      });
      return json(200, { data, pagination: page.pagination });
    },
  });

  // §2.2 Get Channel Followers. Not a plain scope check: an untrusted caller (no scope, app token,
  // or neither broadcaster nor moderator) still gets `total`, but asking about one user is a 401.
  route("GET /channels/followers", {
    userToken: false,
    scopes: [],
    handle({ query, caller }) {
      const broadcasterId = query.get("broadcaster_id");
      if (!broadcasterId) return missing("broadcaster_id");
      if (!userById(broadcasterId))
        return helixError(400, "The broadcaster_id query parameter is not valid.");
      const first = parseFirst(query, 100, 20);
      if (first instanceof Response) return first;
      const followers = world.follows
        .filter((f) => f.broadcaster_id === broadcasterId)
        .sort((a, b) => Date.parse(b.followed_at) - Date.parse(a.followed_at));
      const total = followers.length;
      const trusted =
        caller.userId !== null &&
        caller.scopes.includes("moderator:read:followers") &&
        canModerate(broadcasterId, caller.userId);
      const userId = query.get("user_id");
      if (!trusted) {
        if (userId) {
          return helixError(
            401,
            "The user_id parameter requires the moderator:read:followers scope and the broadcaster or one of its moderators",
          );
        }
        return json(200, { total, data: [], pagination: {} });
      }
      const matching = userId ? followers.filter((f) => f.user_id === userId) : followers;
      const page = paginate(matching, query, { max: 100, def: 20 });
      if (page instanceof Response) return page;
      const data = page.data.map((f) => {
        const u = userRef(f.user_id);
        return { user_id: f.user_id, user_login: u.login, user_name: u.name, followed_at: f.followed_at };
      });
      // With user_id, `total` is still the channel's follower count (the reference's Example 2).
      return json(200, { total, data, pagination: page.pagination });
    },
  });

  // §2.3 Create Clip: 202, offline → 404 (twitch-cli says 400 and 200, reference §3.4).
  route("POST /clips", {
    userToken: true,
    scopes: ["clips:edit"],
    handle({ query, caller }) {
      const broadcasterId = query.get("broadcaster_id");
      if (!broadcasterId) return missing("broadcaster_id");
      const broadcaster = userById(broadcasterId);
      if (!broadcaster) return helixError(400, "The ID in the broadcaster_id query parameter was not found.");
      const rawDuration = query.get("duration") || null;
      let duration = 30;
      if (rawDuration !== null) {
        duration = Number(rawDuration);
        // 5–60 s with 0.1 precision.
        if (
          !Number.isFinite(duration) ||
          duration < 5 ||
          duration > 60 ||
          Math.abs(duration * 10 - Math.round(duration * 10)) > 1e-9
        ) {
          return helixError(400, "The duration must be a number from 5 to 60 with a precision of 0.1.");
        }
      }
      if (caller.userId && activeBan(broadcasterId, caller.userId)) {
        return helixError(403, "The user is banned or timed out from the broadcaster's channel.");
      }
      const stream = streamOf(broadcasterId);
      if (!stream) return helixError(404, "The broadcaster must be broadcasting live.");
      const id = clipSlug();
      const clip: SimClip = {
        id,
        broadcaster_id: broadcasterId,
        creator_id: caller.userId ?? "",
        video_id: "",
        game_id: stream.game_id,
        language: stream.language,
        // Without a title Twitch names the clip after the stream.
        title: query.get("title") || stream.title,
        view_count: 0,
        created_at: rfc3339(clock.now()),
        duration: Math.round(duration * 10) / 10,
        vod_offset: null,
        is_featured: false,
      };
      // Real clips appear within seconds; the simulator publishes at once so Get Clips agrees.
      world.clips.push(clip);
      return json(202, {
        data: [{ id, edit_url: `https://www.twitch.tv/${broadcaster.login}/clip/${id}` }],
      });
    },
  });

  // §2.4 Get Clips.
  route("GET /clips", {
    userToken: false,
    scopes: [],
    handle({ query }) {
      const ids = all(query, "id");
      const broadcasterId = query.get("broadcaster_id") || null;
      const gameId = query.get("game_id") || null;
      const selectors = [ids.length > 0, broadcasterId !== null, gameId !== null].filter(Boolean).length;
      if (selectors === 0)
        return helixError(400, "The id, game_id or broadcaster_id query parameter is required.");
      if (selectors > 1) {
        return helixError(
          400,
          "The id, game_id, and broadcaster_id query parameters are mutually exclusive.",
        );
      }
      if (ids.length > 100) return tooMany("id");
      const featured = query.get("is_featured");
      if (featured !== null && featured !== "true" && featured !== "false") {
        return helixError(400, "The is_featured query parameter must be true or false.");
      }
      const first = parseFirst(query, 100, 20);
      if (first instanceof Response) return first;

      let clips: SimClip[];
      let pagination: Pagination = {};
      if (ids.length > 0) {
        // Lookups by id come back in the order asked, duplicates and unknown ids dropped.
        clips = [...new Set(ids)].flatMap((id) => world.clips.filter((c) => c.id === id));
      } else {
        if (gameId !== null && !knownGames().has(gameId)) {
          return helixError(404, "The ID in game_id was not found.");
        }
        const window = dateWindow(query);
        if (window instanceof Response) return window;
        const matching = world.clips
          .filter((c) => (broadcasterId !== null ? c.broadcaster_id === broadcasterId : c.game_id === gameId))
          .filter((c) => {
            const at = Date.parse(c.created_at);
            return window === null || (at >= window.start && at <= window.end);
          })
          .filter((c) => featured === null || c.is_featured === (featured === "true"))
          .sort((a, b) => b.view_count - a.view_count);
        const page = paginate(matching, query, { max: 100, def: 20, before: true });
        if (page instanceof Response) return page;
        clips = page.data;
        pagination = page.pagination;
      }
      const data = clips.map((c) => ({
        id: c.id,
        url: `https://clips.twitch.tv/${c.id}`,
        embed_url: `https://clips.twitch.tv/embed?clip=${c.id}`,
        broadcaster_id: c.broadcaster_id,
        broadcaster_name: userRef(c.broadcaster_id).name,
        creator_id: c.creator_id,
        creator_name: userRef(c.creator_id).name,
        video_id: c.video_id,
        game_id: c.game_id,
        language: c.language,
        title: c.title,
        view_count: c.view_count,
        created_at: c.created_at,
        thumbnail_url: `https://clips-media-assets.twitch.tv/${c.id}-preview-480x272.jpg`,
        duration: c.duration,
        vod_offset: c.vod_offset,
        is_featured: c.is_featured,
      }));
      return json(200, { data, pagination });
    },
  });

  function knownGames(): Set<string> {
    const games = new Set<string>();
    for (const c of world.channels) games.add(c.game_id);
    for (const s of world.streams) games.add(s.game_id);
    for (const c of world.clips) games.add(c.game_id);
    games.delete("");
    return games;
  }

  /** `started_at`/`ended_at` (RFC 3339); the window defaults to one week after `started_at`. */
  function dateWindow(query: URLSearchParams): { start: number; end: number } | null | Response {
    const startedAt = query.get("started_at") || null;
    const endedAt = query.get("ended_at") || null;
    if (startedAt === null && endedAt === null) return null;
    if (startedAt === null) return helixError(400, "The ended_at parameter requires started_at.");
    if (!RFC3339.test(startedAt) || Number.isNaN(Date.parse(startedAt))) {
      return helixError(400, "The started_at parameter must be an RFC3339 date and time.");
    }
    if (endedAt !== null && (!RFC3339.test(endedAt) || Number.isNaN(Date.parse(endedAt)))) {
      return helixError(400, "The ended_at parameter must be an RFC3339 date and time.");
    }
    const start = Date.parse(startedAt);
    const end = endedAt === null ? start + 7 * 24 * 60 * 60_000 : Date.parse(endedAt);
    if (end < start) return helixError(400, "The ended_at parameter must not be before started_at.");
    return { start, end };
  }

  // §2.5 Get Chatters: a non-moderator is 403 here (twitch-cli says 401, reference §3.4).
  route("GET /chat/chatters", {
    userToken: true,
    scopes: ["moderator:read:chatters"],
    handle(call) {
      const { query } = call;
      const broadcasterId = query.get("broadcaster_id");
      if (!broadcasterId) return missing("broadcaster_id");
      const moderator = actingModerator(call, broadcasterId);
      if (moderator instanceof Response) return moderator;
      const chatters = world.chatters.get(broadcasterId) ?? [];
      const page = paginate(chatters, query, { max: 1000, def: 100 });
      if (page instanceof Response) return page;
      const data = page.data.map((id) => {
        const u = userRef(id);
        return { user_id: id, user_login: u.login, user_name: u.name };
      });
      return json(200, { data, pagination: page.pagination, total: chatters.length });
    },
  });

  // §2.6 Send a Shoutout: 204; cooldowns by the injectable clock (twitch-cli has none).
  route("POST /chat/shoutouts", {
    userToken: true,
    scopes: ["moderator:manage:shoutouts"],
    handle(call) {
      const { query } = call;
      const from = query.get("from_broadcaster_id");
      const to = query.get("to_broadcaster_id");
      if (!from) return missing("from_broadcaster_id");
      if (!to) return missing("to_broadcaster_id");
      const moderator = actingModerator(call, from);
      if (moderator instanceof Response) return moderator;
      if (!userById(to))
        return helixError(400, "The ID in the to_broadcaster_id query parameter is not valid.");
      if (from === to) return helixError(400, "The broadcaster may not give themselves a Shoutout.");
      const stream = streamOf(from);
      if (!stream || stream.viewer_count < 1) {
        return helixError(400, "The broadcaster is not streaming live or does not have one or more viewers.");
      }
      const now = clock.now();
      const lastSent = state.shoutoutSentAt.get(from);
      if (lastSent !== undefined && now - lastSent < SHOUTOUT_SENDER_COOLDOWN_MS) {
        return helixError(
          429,
          `The broadcaster may send a Shoutout once every 2 minutes; try again in ${secondsLeft(lastSent + SHOUTOUT_SENDER_COOLDOWN_MS - now)} seconds.`,
        );
      }
      const pair = `${from}>${to}`;
      const lastPair = state.shoutoutPairAt.get(pair);
      if (lastPair !== undefined && now - lastPair < SHOUTOUT_TARGET_COOLDOWN_MS) {
        return helixError(
          429,
          `The broadcaster may send the same broadcaster a Shoutout once every 60 minutes; try again in ${secondsLeft(lastPair + SHOUTOUT_TARGET_COOLDOWN_MS - now)} seconds.`,
        );
      }
      state.shoutoutSentAt.set(from, now);
      state.shoutoutPairAt.set(pair, now);
      return noContent();
    },
  });

  // §2.9 Ban User / Timeout.
  route("POST /moderation/bans", {
    userToken: true,
    scopes: ["moderator:manage:banned_users"],
    async handle(call) {
      const { query, request } = call;
      const broadcasterId = query.get("broadcaster_id");
      if (!broadcasterId) return missing("broadcaster_id");
      const moderatorId = actingModerator(call, broadcasterId);
      if (moderatorId instanceof Response) return moderatorId;
      const body = await readBanBody(request);
      if (body instanceof Response) return body;
      const { userId, duration, reason } = body;
      const target = userById(userId);
      if (!target) return helixError(400, INVALID_IDS);
      const kind = duration === undefined ? "banned" : "put in a timeout";
      // The broadcaster, yourself and Twitch staff are never targets; another moderator only when the
      // actor is the channel owner (IRC notice bad_timeout_mod, reference §2.9).
      if (
        userId === broadcasterId ||
        userId === moderatorId ||
        target.type !== "" ||
        (isModerator(broadcasterId, userId) && moderatorId !== broadcasterId)
      ) {
        return helixError(400, `The user specified in the user_id field may not be ${kind}.`);
      }
      const existing = activeBan(broadcasterId, userId);
      // A permanent ban can be neither repeated nor turned into a timeout; a timeout can be changed
      // or escalated (the reference's Example 3).
      if (existing && existing.expires_at === null) return helixError(400, "user is already banned");
      const now = clock.now();
      const ban: SimBan = {
        broadcaster_id: broadcasterId,
        user_id: userId,
        moderator_id: moderatorId,
        reason,
        created_at: rfc3339(now),
        expires_at: duration === undefined ? null : rfc3339(now + duration * 1000),
      };
      removeBans(broadcasterId, userId);
      world.bans.push(ban);
      return json(200, {
        data: [
          {
            broadcaster_id: broadcasterId,
            moderator_id: moderatorId, // spelled right (twitch-cli writes moderator_Id, reference §3.4)
            user_id: userId,
            created_at: ban.created_at,
            end_time: ban.expires_at,
          },
        ],
      });
    },
  });

  // §2.9 Unban.
  route("DELETE /moderation/bans", {
    userToken: true,
    scopes: ["moderator:manage:banned_users"],
    handle(call) {
      const { query } = call;
      const broadcasterId = query.get("broadcaster_id");
      if (!broadcasterId) return missing("broadcaster_id");
      if (!query.get("moderator_id")) return missing("moderator_id");
      const userId = query.get("user_id");
      if (!userId) return missing("user_id");
      const moderatorId = actingModerator(call, broadcasterId);
      if (moderatorId instanceof Response) return moderatorId;
      if (!userById(userId)) return helixError(400, INVALID_IDS);
      if (!activeBan(broadcasterId, userId)) return helixError(400, "user is not banned");
      removeBans(broadcasterId, userId);
      return noContent();
    },
  });

  // §2.15 Get Banned Users: active bans and timeouts of the token user's own channel.
  route("GET /moderation/banned", {
    userToken: true,
    scopes: ["moderation:read", "moderator:manage:banned_users"],
    handle(call) {
      const { query } = call;
      const broadcasterId = ownChannel(call);
      if (broadcasterId instanceof Response) return broadcasterId;
      const filter = all(query, "user_id");
      if (filter.length > 100) return tooMany("user_id");
      const active = world.bans
        .filter((b) => b.broadcaster_id === broadcasterId && isActive(b))
        .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
      // With user_id the list follows the order the ids were given in.
      const bans =
        filter.length > 0
          ? [...new Set(filter)].flatMap((id) => active.filter((b) => b.user_id === id))
          : active;
      const page = paginate(bans, query, { max: 100, def: 20, before: true });
      if (page instanceof Response) return page;
      const data = page.data.map((b) => {
        const u = userRef(b.user_id);
        const m = userRef(b.moderator_id);
        return {
          user_id: b.user_id,
          user_login: u.login,
          user_name: u.name,
          // "" for a permanent ban, as Twitch documents (the OpenAPI's date-time format disagrees).
          expires_at: b.expires_at ?? "",
          created_at: b.created_at,
          reason: b.reason,
          moderator_id: b.moderator_id,
          moderator_login: m.login,
          moderator_name: m.name,
        };
      });
      return json(200, { data, pagination: page.pagination });
    },
  });

  /** Role lists (moderators, VIPs) of the token user's own channel, filtered by repeated user_id. */
  function roleList(call: HelixCall, roles: Map<string, string[]>): Response {
    const { query } = call;
    const broadcasterId = ownChannel(call);
    if (broadcasterId instanceof Response) return broadcasterId;
    const filter = all(query, "user_id");
    if (filter.length > 100) return tooMany("user_id");
    if (filter.some((id) => !/^\d+$/.test(id))) {
      return helixError(400, "The ID in the user_id query parameter is not valid.");
    }
    const members = roles.get(broadcasterId) ?? [];
    // The filter keeps the order asked for and silently drops users without the role.
    const listed = filter.length > 0 ? [...new Set(filter)].filter((id) => members.includes(id)) : members;
    const page = paginate(listed, query, { max: 100, def: 20 });
    if (page instanceof Response) return page;
    const data = page.data.map((id) => {
      const u = userRef(id);
      return { user_id: id, user_login: u.login, user_name: u.name };
    });
    return json(200, { data, pagination: page.pagination });
  }

  // §2.10 Get Moderators: broadcaster only.
  route("GET /moderation/moderators", {
    userToken: true,
    scopes: ["moderation:read", "channel:manage:moderators"],
    handle: (call) => roleList(call, world.moderators),
  });

  // Get Moderated Channels: the channels where the token's user is a moderator (a linked chat bot
  // asks it, with user:read:moderated_channels, to tell whether it may send at the privileged pace).
  route("GET /moderation/channels", {
    userToken: true,
    scopes: ["user:read:moderated_channels"],
    handle(call) {
      const userId = call.query.get("user_id");
      if (!userId) return missing("user_id");
      if (userId !== call.caller.userId) {
        return helixError(
          400,
          "The ID in user_id must match the user ID found in the request's OAuth token.",
        );
      }
      const data = [...world.moderators]
        .filter(([, ids]) => ids.includes(userId))
        .map(([broadcasterId]) => {
          const b = userRef(broadcasterId);
          return { broadcaster_id: b.id, broadcaster_login: b.login, broadcaster_name: b.name };
        });
      return json(200, { data, pagination: {} });
    },
  });

  // §2.11 Get VIPs: broadcaster only (twitch-cli does not check, reference §3.4).
  route("GET /channels/vips", {
    userToken: true,
    scopes: ["channel:read:vips", "channel:manage:vips"],
    handle: (call) => roleList(call, world.vips),
  });

  // §2.12 Get Broadcaster Subscriptions: tiered points (twitch-cli says points = total).
  route("GET /subscriptions", {
    userToken: true,
    scopes: ["channel:read:subscriptions"],
    handle(call) {
      const { query } = call;
      const broadcasterId = ownChannel(call);
      if (broadcasterId instanceof Response) return broadcasterId;
      const filter = all(query, "user_id");
      if (filter.length > 100) return tooMany("user_id");
      if (filter.length > 0 && (query.get("after") || query.get("before"))) {
        // The reference says not to send cursors with user_id; the simulator makes that mistake loud.
        return helixError(400, "The after and before parameters may not be used with user_id.");
      }
      const subs = world.subscriptions.filter((s) => s.broadcaster_id === broadcasterId);
      const total = subs.length;
      const points = subs.reduce((sum, s) => sum + (TIER_POINTS[s.tier] ?? 0), 0);
      const listed =
        filter.length > 0 ? [...new Set(filter)].flatMap((id) => subs.filter((s) => s.user_id === id)) : subs;
      const page = paginate(listed, query, { max: 100, def: 20, before: true });
      if (page instanceof Response) return page;
      const b = userRef(broadcasterId);
      const data = page.data.map((s) => {
        const u = userRef(s.user_id);
        const g = s.is_gift ? userRef(s.gifter_id) : { id: "", login: "", name: "" };
        return {
          broadcaster_id: broadcasterId,
          broadcaster_login: b.login,
          broadcaster_name: b.name,
          gifter_id: g.id,
          gifter_login: g.login,
          gifter_name: g.name,
          is_gift: s.is_gift,
          plan_name: s.plan_name,
          tier: s.tier,
          user_id: s.user_id,
          user_name: u.name,
          user_login: u.login,
        };
      });
      return json(200, { data, pagination: page.pagination, total, points });
    },
  });

  return routes;
}

const secondsLeft = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** Parses Ban User's JSON body `{data: {user_id, duration?, reason?}}` with Twitch's 400s. */
async function readBanBody(
  request: Request,
): Promise<{ userId: string; duration: number | undefined; reason: string } | Response> {
  if (!(request.headers.get("content-type") ?? "").includes("application/json")) {
    return helixError(400, "The request's Content-Type must be application/json.");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(await request.text());
  } catch {
    return helixError(400, "The request body is not valid JSON.");
  }
  const data = parsed && typeof parsed === "object" ? (parsed as { data?: unknown }).data : undefined;
  if (!data || typeof data !== "object") return helixError(400, "The data field is required.");
  const { user_id: userId, duration, reason } = data as Record<string, unknown>;
  if (typeof userId !== "string" || userId === "") return helixError(400, "The user_id field is required.");
  if (
    duration !== undefined &&
    (typeof duration !== "number" || !Number.isInteger(duration) || duration < 1 || duration > MAX_TIMEOUT_S)
  ) {
    return helixError(400, "The value in the duration field is not valid.");
  }
  if (reason !== undefined && typeof reason !== "string")
    return helixError(400, "The reason field must be a string.");
  if (typeof reason === "string" && [...reason].length > 500) {
    return helixError(400, "The text in the reason field is too long.");
  }
  return { userId, duration, reason: reason ?? "" };
}

const SLUG_WORDS = [
  "Awkward",
  "Brave",
  "Clever",
  "Dizzy",
  "Eager",
  "Fancy",
  "Gentle",
  "Happy",
  "Salamander",
  "Penguin",
  "Otter",
  "Falcon",
  "Pizza",
  "Noodle",
  "Kappa",
  "PogChamp",
  "SwiftRage",
  "BibleThump",
];

/** Clip ids look like Twitch's: PascalCase words, a dash, random letters. */
function clipSlug(): string {
  const bytes = randomBytes(20);
  const words = Array.from({ length: 4 }, (_, i) => SLUG_WORDS[bytes[i]! % SLUG_WORDS.length]!).join("");
  return `${words}-${bytes.subarray(4).toString("base64url")}`;
}
