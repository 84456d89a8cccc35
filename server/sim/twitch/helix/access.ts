import type { Clock } from "../../../core/clock.ts";
import type { SimBan, SimStream, SimUser, SimWorld } from "../world.ts";
import { helixError, missing } from "./http.ts";
import type { HelixCall } from "./route.ts";

/**
 * Who is who in the simulated world, as several Helix resources ask it: users by id, channel roles,
 * live streams, active bans, and the two identity rules of the moderation endpoints (`broadcaster_id`
 * must be the token's user; `moderator_id` must be the token's user and one of the channel's mods).
 */

/** Where Twitch observed-ly words an unknown or malformed id on moderation routes (reference §2.9). */
export const INVALID_IDS = "One of broadcaster ID, user ID or the moderator ID is invalid.";

export const userById = (world: SimWorld, id: string): SimUser | undefined =>
  world.users.find((u) => u.id === id);

/** A user's id, login and display name; "" for an unknown id (as Helix fills its `*_login` fields). */
export const userRef = (world: SimWorld, id: string) => {
  const u = userById(world, id);
  return { id, login: u?.login ?? "", name: u?.display_name ?? "" };
};

export const isModerator = (world: SimWorld, broadcasterId: string, userId: string) =>
  (world.moderators.get(broadcasterId) ?? []).includes(userId);

/** The broadcaster or one of their moderators: who may act as `moderator_id`. */
export const canModerate = (world: SimWorld, broadcasterId: string, userId: string) =>
  broadcasterId === userId || isModerator(world, broadcasterId, userId);

export const streamOf = (world: SimWorld, userId: string): SimStream | undefined =>
  world.streams.find((s) => s.user_id === userId);

/** Timeouts end by the clock; an expired one is no ban at all. */
export const isActive = (clock: Clock, ban: SimBan) =>
  ban.expires_at === null || Date.parse(ban.expires_at) > clock.now();

export const activeBan = (world: SimWorld, clock: Clock, broadcasterId: string, userId: string) =>
  world.bans.find((b) => b.broadcaster_id === broadcasterId && b.user_id === userId && isActive(clock, b));

/** In place, so a test holding `world.bans` sees the change. Expired timeouts go too. */
export function removeBans(world: SimWorld, broadcasterId: string, userId: string): void {
  for (let i = world.bans.length - 1; i >= 0; i--) {
    const b = world.bans[i]!;
    if (b.broadcaster_id === broadcasterId && b.user_id === userId) world.bans.splice(i, 1);
  }
}

/** `broadcaster_id` must be the token's user (Get Moderators/VIPs/Subscriptions/Banned Users). */
export function ownChannel(call: HelixCall): string | Response {
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
export function actingModerator(world: SimWorld, call: HelixCall, broadcasterId: string): string | Response {
  const moderatorId = call.query.get("moderator_id");
  if (!moderatorId) return missing("moderator_id");
  if (moderatorId !== call.caller.userId) {
    return helixError(401, "The ID in moderator_id must match the user ID in the user access token.");
  }
  if (!userById(world, broadcasterId)) return helixError(400, INVALID_IDS);
  if (!canModerate(world, broadcasterId, moderatorId)) {
    return helixError(403, "The user in moderator_id is not one of the broadcaster's moderators.");
  }
  return moderatorId;
}
