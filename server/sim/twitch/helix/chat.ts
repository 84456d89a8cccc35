import { actingModerator, streamOf, userById, userRef } from "./access.ts";
import { helixError, json, missing, noContent } from "./http.ts";
import { paginate } from "./paging.ts";
import type { HelixCall, HelixEnvironment, HelixRoute, HelixRouteList } from "./route.ts";

/**
 * The chat resource's read side and Shoutouts: Get Chatters (§2.5) and Send a Shoutout (§2.6) of
 * reference/twitch.md. Send Chat Message is the chat simulator's (../chat/send.ts).
 */
export function chatRoutes(env: HelixEnvironment): HelixRouteList {
  return [
    ["GET /chat/chatters", getChatters(env)],
    ["POST /chat/shoutouts", sendShoutout(env)],
  ];
}

/** Shoutout rate limits from the endpoint's description: 2 min per sender, 60 min per target. */
const SHOUTOUT_SENDER_COOLDOWN_MS = 2 * 60_000;
const SHOUTOUT_TARGET_COOLDOWN_MS = 60 * 60_000;

const secondsLeft = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

// §2.5 Get Chatters: a non-moderator is 403 here (twitch-cli says 401, reference §3.4).
function getChatters({ world }: HelixEnvironment): HelixRoute {
  return {
    userToken: true,
    scopes: ["moderator:read:chatters"],
    handle(call: HelixCall) {
      const { query } = call;
      const broadcasterId = query.get("broadcaster_id");
      if (!broadcasterId) return missing("broadcaster_id");
      const moderator = actingModerator(world, call, broadcasterId);
      if (moderator instanceof Response) return moderator;
      const chatters = world.chatters.get(broadcasterId) ?? [];
      const page = paginate(chatters, query, { max: 1000, def: 100 });
      if (page instanceof Response) return page;
      const data = page.data.map((id) => {
        const u = userRef(world, id);
        return { user_id: id, user_login: u.login, user_name: u.name };
      });
      return json(200, { data, pagination: page.pagination, total: chatters.length });
    },
  };
}

// §2.6 Send a Shoutout: 204; cooldowns by the injectable clock (twitch-cli has none).
function sendShoutout({ world, clock, state }: HelixEnvironment): HelixRoute {
  return {
    userToken: true,
    scopes: ["moderator:manage:shoutouts"],
    handle(call: HelixCall) {
      const { query } = call;
      const from = query.get("from_broadcaster_id");
      const to = query.get("to_broadcaster_id");
      if (!from) return missing("from_broadcaster_id");
      if (!to) return missing("to_broadcaster_id");
      const moderator = actingModerator(world, call, from);
      if (moderator instanceof Response) return moderator;
      if (!userById(world, to))
        return helixError(400, "The ID in the to_broadcaster_id query parameter is not valid.");
      if (from === to) return helixError(400, "The broadcaster may not give themselves a Shoutout.");
      const stream = streamOf(world, from);
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
  };
}
