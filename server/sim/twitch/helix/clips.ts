import { randomBytes } from "node:crypto";
import type { SimClip, SimWorld } from "../world.ts";
import { activeBan, streamOf, userById, userRef } from "./access.ts";
import { all, helixError, json, missing, rfc3339, tooMany } from "./http.ts";
import { type Pagination, paginate, parseFirst } from "./paging.ts";
import type { HelixCall, HelixEnvironment, HelixRoute, HelixRouteList } from "./route.ts";

/** The clips resource: Create Clip (§2.3) and Get Clips (§2.4) of reference/twitch.md. */
export function clipRoutes(env: HelixEnvironment): HelixRouteList {
  return [
    ["POST /clips", createClip(env)],
    ["GET /clips", getClips(env)],
  ];
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

// §2.3 Create Clip: 202, offline → 404 (twitch-cli says 400 and 200, reference §3.4).
function createClip({ world, clock }: HelixEnvironment): HelixRoute {
  return {
    userToken: true,
    scopes: ["clips:edit"],
    handle({ query, caller }: HelixCall) {
      const broadcasterId = query.get("broadcaster_id");
      if (!broadcasterId) return missing("broadcaster_id");
      const broadcaster = userById(world, broadcasterId);
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
      if (caller.userId && activeBan(world, clock, broadcasterId, caller.userId)) {
        return helixError(403, "The user is banned or timed out from the broadcaster's channel.");
      }
      const stream = streamOf(world, broadcasterId);
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
  };
}

// §2.4 Get Clips.
function getClips({ world }: HelixEnvironment): HelixRoute {
  return {
    userToken: false,
    scopes: [],
    handle({ query }: HelixCall) {
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
        if (gameId !== null && !knownGames(world).has(gameId)) {
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
      const data = clips.map((c) => clipJson(world, c));
      return json(200, { data, pagination });
    },
  };
}

function clipJson(world: SimWorld, c: SimClip) {
  return {
    id: c.id,
    url: `https://clips.twitch.tv/${c.id}`,
    embed_url: `https://clips.twitch.tv/embed?clip=${c.id}`,
    broadcaster_id: c.broadcaster_id,
    broadcaster_name: userRef(world, c.broadcaster_id).name,
    creator_id: c.creator_id,
    creator_name: userRef(world, c.creator_id).name,
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
  };
}

function knownGames(world: SimWorld): Set<string> {
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
