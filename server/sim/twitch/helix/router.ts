import { channelRoutes } from "./channels.ts";
import { chatRoutes } from "./chat.ts";
import { clipRoutes } from "./clips.ts";
import { moderationRoutes } from "./moderation.ts";
import { roleRoutes } from "./roles.ts";
import type { HelixEnvironment, HelixRoute } from "./route.ts";
import { streamRoutes } from "./streams.ts";
import { subscriptionRoutes } from "./subscriptions.ts";
import { userRoutes } from "./users.ts";

/**
 * The simulated Helix endpoints, one handler per "METHOD /path", with real Twitch's semantics
 * (reference/twitch.md §2) rather than twitch-cli's mock (§3.4 lists where the mock deviates): one
 * module per resource, assembled here. The EventSub subscription API (../eventsub/subscriptions.ts)
 * and Send Chat Message (../chat/send.ts) join them in ../server.ts; middleware.ts runs before each.
 */
export function createHelixRoutes(env: HelixEnvironment): Map<string, HelixRoute> {
  return new Map([
    ...userRoutes(env),
    ...channelRoutes(env),
    ...streamRoutes(env),
    ...clipRoutes(env),
    ...chatRoutes(env),
    ...moderationRoutes(env),
    ...roleRoutes(env),
    ...subscriptionRoutes(env),
  ]);
}
