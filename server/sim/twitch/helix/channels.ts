import { canModerate, userById, userRef } from "./access.ts";
import { all, helixError, json, missing, tooMany } from "./http.ts";
import { paginate, parseFirst } from "./paging.ts";
import type { HelixCall, HelixEnvironment, HelixRoute, HelixRouteList } from "./route.ts";

/** The channels resource: channel information (§2.14) and followers (§2.2) of reference/twitch.md. */
export function channelRoutes(env: HelixEnvironment): HelixRouteList {
  return [
    ["GET /channels", channelInformation(env)],
    ["GET /channels/followers", channelFollowers(env)],
  ];
}

// §2.14 Get Channel Information: works offline (title/game are the last values).
function channelInformation({ world }: HelixEnvironment): HelixRoute {
  return {
    userToken: false,
    scopes: [],
    handle({ query, caller }: HelixCall) {
      const ids = all(query, "broadcaster_id");
      if (ids.length === 0) return missing("broadcaster_id");
      if (ids.length > 100) return tooMany("broadcaster_id");
      const wanted = [...new Set(ids)];
      const data = wanted.flatMap((id) => {
        const channel = world.channels.find((c) => c.broadcaster_id === id);
        const owner = userById(world, id);
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
  };
}

// §2.2 Get Channel Followers. Not a plain scope check: an untrusted caller (no scope, app token,
// or neither broadcaster nor moderator) still gets `total`, but asking about one user is a 401.
function channelFollowers({ world }: HelixEnvironment): HelixRoute {
  return {
    userToken: false,
    scopes: [],
    handle({ query, caller }: HelixCall) {
      const broadcasterId = query.get("broadcaster_id");
      if (!broadcasterId) return missing("broadcaster_id");
      if (!userById(world, broadcasterId))
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
        canModerate(world, broadcasterId, caller.userId);
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
        const u = userRef(world, f.user_id);
        return { user_id: f.user_id, user_login: u.login, user_name: u.name, followed_at: f.followed_at };
      });
      // With user_id, `total` is still the channel's follower count (the reference's Example 2).
      return json(200, { total, data, pagination: page.pagination });
    },
  };
}
