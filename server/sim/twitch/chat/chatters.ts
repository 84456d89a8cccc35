import type { Clock } from "../../../core/clock.ts";
import type { SimUser, SimWorld } from "../world.ts";

/** Who types in chat: users by login or id, chatters made up on the fly, their roles and badges. */

export interface SimBadge {
  set_id: string;
  id: string;
  info: string;
}

export type ChatRole = "moderator" | "vip" | "none";

/** A user by login, with or without the leading "@", in any case. */
export const byLogin = (world: SimWorld, login: string) =>
  world.users.find((u) => u.login === login.replace(/^@/, "").toLowerCase());

export const byId = (world: SimWorld, id: string) => world.users.find((u) => u.id === id);

/** An unknown chatter is created on the fly, as anyone may type in chat. */
export function chatter(world: SimWorld, clock: Clock, login: string): SimUser {
  const existing = byLogin(world, login);
  if (existing) return existing;
  const clean = login.replace(/^@/, "").toLowerCase();
  const user: SimUser = {
    id: String(200_000 + world.users.length),
    login: clean,
    display_name: clean,
    type: "",
    broadcaster_type: "",
    description: "",
    profile_image_url: "",
    offline_image_url: "",
    view_count: 0,
    email: "",
    created_at: new Date(clock.now()).toISOString().replace(/\.\d{3}Z$/, "Z"),
  };
  world.users.push(user);
  return user;
}

export function roleOf(world: SimWorld, broadcasterId: string, userId: string): "broadcaster" | ChatRole {
  if (broadcasterId === userId) return "broadcaster";
  if ((world.moderators.get(broadcasterId) ?? []).includes(userId)) return "moderator";
  if ((world.vips.get(broadcasterId) ?? []).includes(userId)) return "vip";
  return "none";
}

/**
 * The role's badge, then the subscriber badge for a subscribed chatter (version by tier, as Twitch's
 * default badge set numbers them; `info` is the months, which the world does not keep: "1").
 */
export function badgesOf(world: SimWorld, broadcasterId: string, userId: string): SimBadge[] {
  const role = roleOf(world, broadcasterId, userId);
  const badges: SimBadge[] = role === "none" ? [] : [{ set_id: role, id: "1", info: "" }];
  const sub = world.subscriptions.find((s) => s.broadcaster_id === broadcasterId && s.user_id === userId);
  if (sub && role !== "broadcaster") {
    badges.push({ set_id: "subscriber", id: sub.tier === "1000" ? "0" : sub.tier, info: "1" });
  }
  return badges;
}

/** Makes `user` a moderator, a VIP or neither in `channel` (the chatter is created if unknown). */
export function setRole(world: SimWorld, clock: Clock, channel: string, user: string, role: ChatRole): void {
  const c = byLogin(world, channel);
  if (!c) throw new Error(`no simulated channel ${channel}`);
  const u = chatter(world, clock, user);
  for (const map of [world.moderators, world.vips]) {
    map.set(
      c.id,
      (map.get(c.id) ?? []).filter((id) => id !== u.id),
    );
  }
  if (role === "moderator") world.moderators.get(c.id)?.push(u.id);
  if (role === "vip") world.vips.get(c.id)?.push(u.id);
}

/** Whether a user is banned or timed out in a channel right now. */
export const isBanned = (world: SimWorld, clock: Clock, broadcasterId: string, userId: string) =>
  world.bans.some(
    (b) =>
      b.broadcaster_id === broadcasterId &&
      b.user_id === userId &&
      (b.expires_at === null || Date.parse(b.expires_at) > clock.now()),
  );
