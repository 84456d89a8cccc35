import type { CommandName } from "../bot/catalog.ts";
import type { ChatCaller, CommandArgs, CommandInput } from "../bot/command-input.ts";
import type { ChatMessageEvent } from "../live/eventsub-message.ts";

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

/** Which arguments each command's chat words fill, in order (`!dice 20 2` → sides, count). */
const POSITIONAL: Partial<Record<CommandName, readonly ("user" | "sides" | "count")[]>> = {
  followage: ["user"],
  shoutout: ["user"],
  dice: ["sides", "count"],
};

/**
 * The command call a chat line makes: the arguments a chat bot would put in the bot endpoint's URL,
 * and the caller as Nightbot describes one.
 */
export function commandInputFromChat(
  command: CommandName,
  words: readonly string[],
  event: ChatMessageEvent,
): CommandInput {
  const args: CommandArgs = { channel: event.broadcasterLogin };
  const names = POSITIONAL[command] ?? [];
  names.forEach((name, i) => {
    const value = words[i];
    if (value !== undefined) args[name] = value;
  });
  if (command === "magic8" && words.length > 0) args.question = words.join(" ");
  if (command === "roulette" && words[0]?.toLowerCase() === "random") args.target = "random";
  const caller: ChatCaller = {
    channel: event.broadcasterLogin,
    user: event.chatterLogin,
    displayName: event.chatterName,
    userLevel: userLevelOf(event),
  };
  return { args, caller };
}
