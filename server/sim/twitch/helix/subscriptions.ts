import { ownChannel, userRef } from "./access.ts";
import { all, helixError, json, tooMany } from "./http.ts";
import { paginate } from "./paging.ts";
import type { HelixEnvironment, HelixRouteList } from "./route.ts";

/** Subscriber points per tier (reference/twitch.md §2.12). */
const TIER_POINTS: Record<string, number> = { "1000": 1, "2000": 2, "3000": 6 };

/** Channel subscriptions: Get Broadcaster Subscriptions (reference/twitch.md §2.12). */
export function subscriptionRoutes({ world }: HelixEnvironment): HelixRouteList {
  return [
    // §2.12 Get Broadcaster Subscriptions: tiered points (twitch-cli says points = total).
    [
      "GET /subscriptions",
      {
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
            filter.length > 0
              ? [...new Set(filter)].flatMap((id) => subs.filter((s) => s.user_id === id))
              : subs;
          const page = paginate(listed, query, { max: 100, def: 20, before: true });
          if (page instanceof Response) return page;
          const b = userRef(world, broadcasterId);
          const data = page.data.map((s) => {
            const u = userRef(world, s.user_id);
            const g = s.is_gift ? userRef(world, s.gifter_id) : { id: "", login: "", name: "" };
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
      },
    ],
  ];
}
