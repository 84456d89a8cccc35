import type { CommandName } from "../bot/catalog.ts";
import type { ChatCaller } from "../bot/chat-input.ts";
import type { CommandInput } from "../bot/commands.ts";
import type { ChatMessageEvent } from "./eventsub-message.ts";

/** Badges Twitch shows moderators: a lead moderator wears `lead_moderator` instead of `moderator`. */
export const MODERATOR_BADGES: readonly string[] = ["moderator", "lead_moderator"];

/**
 * The caller's standing from their chat badges, in the words the bot endpoints already understand
 * (Nightbot's userLevel): badges come from Twitch itself, so they are trustworthy here.
 */
export function userLevelOf(event: Pick<ChatMessageEvent, "badges" | "chatterId" | "broadcasterId">): string {
  if (event.chatterId === event.broadcasterId || event.badges.includes("broadcaster")) return "owner";
  if (MODERATOR_BADGES.some((badge) => event.badges.includes(badge))) return "moderator";
  if (event.badges.includes("vip")) return "twitch_vip";
  if (event.badges.includes("subscriber") || event.badges.includes("founder")) return "subscriber";
  return "everyone";
}

/** Which query parameters each command's chat words fill, in order (`!dice 20 2` → sides, count). */
const POSITIONAL: Partial<Record<CommandName, readonly string[]>> = {
  followage: ["user"],
  shoutout: ["user"],
  dice: ["sides", "count"],
};

/**
 * What the bot endpoint would have been given for this chat line: the same parameters a chat bot
 * puts in the URL, and the caller as Nightbot describes one.
 */
export function commandInputFromChat(
  command: CommandName,
  args: readonly string[],
  event: ChatMessageEvent,
): CommandInput & { params: URLSearchParams } {
  const params = new URLSearchParams();
  params.set("channel", event.broadcasterLogin);
  const names = POSITIONAL[command] ?? [];
  names.forEach((name, i) => {
    const value = args[i];
    if (value !== undefined) params.set(name, value);
  });
  if (command === "magic8" && args.length > 0) params.set("question", args.join(" "));
  if (command === "roulette" && args[0]?.toLowerCase() === "random") params.set("target", "random");
  const caller: ChatCaller = {
    channel: event.broadcasterLogin,
    user: event.chatterLogin,
    displayName: event.chatterName,
    userLevel: userLevelOf(event),
  };
  return { params, caller };
}
