import type { SimWorld } from "../world.ts";
import { ownChannel, userRef } from "./access.ts";
import { all, helixError, json, missing, tooMany } from "./http.ts";
import { paginate } from "./paging.ts";
import type { HelixCall, HelixEnvironment, HelixRouteList } from "./route.ts";

/**
 * Channel roles: Get Moderators (reference/twitch.md §2.10), Get VIPs (§2.11), and Get Moderated
 * Channels, the other side of the moderator list.
 */
export function roleRoutes({ world }: HelixEnvironment): HelixRouteList {
  return [
    // §2.10 Get Moderators: broadcaster only.
    [
      "GET /moderation/moderators",
      {
        userToken: true,
        scopes: ["moderation:read", "channel:manage:moderators"],
        handle: (call) => roleList(world, call, world.moderators),
      },
    ],
    // Get Moderated Channels: the channels where the token's user is a moderator (a linked chat bot
    // asks it, with user:read:moderated_channels, to tell whether it may send at the privileged pace).
    [
      "GET /moderation/channels",
      {
        userToken: true,
        scopes: ["user:read:moderated_channels"],
        handle: (call) => moderatedChannels(world, call),
      },
    ],
    // §2.11 Get VIPs: broadcaster only (twitch-cli does not check, reference §3.4).
    [
      "GET /channels/vips",
      {
        userToken: true,
        scopes: ["channel:read:vips", "channel:manage:vips"],
        handle: (call) => roleList(world, call, world.vips),
      },
    ],
  ];
}

/** Role lists (moderators, VIPs) of the token user's own channel, filtered by repeated user_id. */
function roleList(world: SimWorld, call: HelixCall, roles: Map<string, string[]>): Response {
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
    const u = userRef(world, id);
    return { user_id: id, user_login: u.login, user_name: u.name };
  });
  return json(200, { data, pagination: page.pagination });
}

function moderatedChannels(world: SimWorld, call: HelixCall): Response {
  const userId = call.query.get("user_id");
  if (!userId) return missing("user_id");
  if (userId !== call.caller.userId) {
    return helixError(400, "The ID in user_id must match the user ID found in the request's OAuth token.");
  }
  const channels = [...world.moderators].filter(([, ids]) => ids.includes(userId)).map(([id]) => id);
  // `first` 1–100, default 20 (moderation.md §2.7).
  const page = paginate(channels, call.query, { max: 100, def: 20 });
  if (page instanceof Response) return page;
  const data = page.data.map((broadcasterId) => {
    const b = userRef(world, broadcasterId);
    return { broadcaster_id: b.id, broadcaster_login: b.login, broadcaster_name: b.name };
  });
  return json(200, { data, pagination: page.pagination });
}
