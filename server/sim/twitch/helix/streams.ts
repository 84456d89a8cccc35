import type { SimStream } from "../world.ts";
import { userById, userRef } from "./access.ts";
import { all, helixError, json, rfc3339, tooMany } from "./http.ts";
import { paginate } from "./paging.ts";
import type { HelixEnvironment, HelixRouteList } from "./route.ts";

/** The streams resource (reference/twitch.md §2.13), and how a test or the demo starts and ends one. */
export function streamRoutes({ world }: HelixEnvironment): HelixRouteList {
  return [
    // §2.13 Get Streams: only live channels; an offline broadcaster yields nothing.
    [
      "GET /streams",
      {
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
              const owner = userById(world, s.user_id);
              if (byUser && !ids.includes(s.user_id) && !(owner && logins.includes(owner.login)))
                return false;
              if (games.length > 0 && !games.includes(s.game_id)) return false;
              if (languages.length > 0 && !languages.includes(s.language)) return false;
              return true;
            })
            // Helix lists the most-watched streams first.
            .sort((a, b) => b.viewer_count - a.viewer_count);
          const page = paginate(streams, query, { max: 100, def: 20, before: true });
          if (page instanceof Response) return page;
          const data = page.data.map((s) => {
            const owner = userRef(world, s.user_id);
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
      },
    ],
  ];
}

/**
 * Starts or ends a broadcaster's stream (`TwitchSimulator.setLive`). Going live builds the stream from
 * the channel's title, game and language, started now by the clock, with `overrides` on top
 * (viewer_count defaults to 1); going offline removes it.
 */
export function setLive(
  { world, clock, state }: HelixEnvironment,
  userId: string,
  live: boolean,
  overrides: Partial<Omit<SimStream, "user_id">>,
): void {
  if (!userById(world, userId)) throw new Error(`no simulated user ${userId}`);
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
    id: String(state.nextStreamId++),
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
}
