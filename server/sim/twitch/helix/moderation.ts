import type { SimBan } from "../world.ts";
import {
  actingModerator,
  activeBan,
  INVALID_IDS,
  isActive,
  isModerator,
  ownChannel,
  removeBans,
  userById,
  userRef,
} from "./access.ts";
import { all, helixError, json, missing, noContent, rfc3339, tooMany } from "./http.ts";
import { paginate } from "./paging.ts";
import type { HelixCall, HelixEnvironment, HelixRoute, HelixRouteList } from "./route.ts";

/** Bans and timeouts (reference/twitch.md §2.9) and the list of them (§2.15). */
export function moderationRoutes(env: HelixEnvironment): HelixRouteList {
  return [
    ["POST /moderation/bans", banUser(env)],
    ["DELETE /moderation/bans", unbanUser(env)],
    ["GET /moderation/banned", bannedUsers(env)],
  ];
}

/** Longest timeout: 1 209 600 s = 2 weeks (BanUserBody.duration). */
const MAX_TIMEOUT_S = 1_209_600;

// §2.9 Ban User / Timeout.
function banUser({ world, clock, onBan }: HelixEnvironment): HelixRoute {
  return {
    userToken: true,
    scopes: ["moderator:manage:banned_users"],
    async handle(call: HelixCall) {
      const { query, request } = call;
      const broadcasterId = query.get("broadcaster_id");
      if (!broadcasterId) return missing("broadcaster_id");
      const moderatorId = actingModerator(world, call, broadcasterId);
      if (moderatorId instanceof Response) return moderatorId;
      const body = await readBanBody(request);
      if (body instanceof Response) return body;
      const { userId, duration, reason } = body;
      const target = userById(world, userId);
      if (!target) return helixError(400, INVALID_IDS);
      const kind = duration === undefined ? "banned" : "put in a timeout";
      // The broadcaster, yourself and Twitch staff are never targets; another moderator only when the
      // actor is the channel owner (IRC notice bad_timeout_mod, reference §2.9).
      if (
        userId === broadcasterId ||
        userId === moderatorId ||
        target.type !== "" ||
        (isModerator(world, broadcasterId, userId) && moderatorId !== broadcasterId)
      ) {
        return helixError(400, `The user specified in the user_id field may not be ${kind}.`);
      }
      const existing = activeBan(world, clock, broadcasterId, userId);
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
      removeBans(world, broadcasterId, userId);
      world.bans.push(ban);
      onBan(broadcasterId, userId);
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
  };
}

// §2.9 Unban.
function unbanUser({ world, clock }: HelixEnvironment): HelixRoute {
  return {
    userToken: true,
    scopes: ["moderator:manage:banned_users"],
    handle(call: HelixCall) {
      const { query } = call;
      const broadcasterId = query.get("broadcaster_id");
      if (!broadcasterId) return missing("broadcaster_id");
      if (!query.get("moderator_id")) return missing("moderator_id");
      const userId = query.get("user_id");
      if (!userId) return missing("user_id");
      const moderatorId = actingModerator(world, call, broadcasterId);
      if (moderatorId instanceof Response) return moderatorId;
      if (!userById(world, userId)) return helixError(400, INVALID_IDS);
      if (!activeBan(world, clock, broadcasterId, userId)) return helixError(400, "user is not banned");
      removeBans(world, broadcasterId, userId);
      return noContent();
    },
  };
}

// §2.15 Get Banned Users: active bans and timeouts of the token user's own channel.
function bannedUsers({ world, clock }: HelixEnvironment): HelixRoute {
  return {
    userToken: true,
    scopes: ["moderation:read", "moderator:manage:banned_users"],
    handle(call: HelixCall) {
      const { query } = call;
      const broadcasterId = ownChannel(call);
      if (broadcasterId instanceof Response) return broadcasterId;
      const filter = all(query, "user_id");
      if (filter.length > 100) return tooMany("user_id");
      const active = world.bans
        .filter((b) => b.broadcaster_id === broadcasterId && isActive(clock, b))
        .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
      // With user_id the list follows the order the ids were given in.
      const bans =
        filter.length > 0
          ? [...new Set(filter)].flatMap((id) => active.filter((b) => b.user_id === id))
          : active;
      const page = paginate(bans, query, { max: 100, def: 20, before: true });
      if (page instanceof Response) return page;
      const data = page.data.map((b) => {
        const u = userRef(world, b.user_id);
        const m = userRef(world, b.moderator_id);
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
  };
}

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
