import { COMMANDS, type CommandName } from "../bot/catalog.ts";
import type { ChatCaller, CommandArgs, CommandInput } from "../bot/command-input.ts";
import type { ChatWord } from "../bot/definition.ts";
import { MODERATOR_BADGES } from "../live/chat-levels.ts";
import type { ChatMessageEvent } from "../live/eventsub-message.ts";

/** Badges Twitch shows moderators: a lead moderator wears `lead_moderator` instead of `moderator`. */
export { MODERATOR_BADGES };

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

/**
 * The command call a chat line makes: the arguments a chat bot would put in the bot endpoint's URL,
 * filled from the words as the command's definition says (its `chat` table), and the caller as
 * Nightbot describes one.
 */
export function commandInputFromChat(
  command: CommandName,
  words: readonly string[],
  event: ChatMessageEvent,
): CommandInput {
  const args: CommandArgs = { channel: event.broadcasterLogin };
  const slots: readonly ChatWord<string>[] | undefined = COMMANDS[command].chat;
  for (let i = 0; slots !== undefined && i < slots.length; i++) {
    const slot = slots[i];
    if (slot !== undefined) fillWord(args, slot, words, i);
  }
  const caller: ChatCaller = {
    channel: event.broadcasterLogin,
    user: event.chatterLogin,
    displayName: event.chatterName,
    userLevel: userLevelOf(event),
  };
  return { args, caller };
}

/** Fills one argument from the word at `index` (or the words from there on), when the line has it. */
function fillWord(args: CommandArgs, slot: ChatWord<string>, words: readonly string[], index: number): void {
  const word = words[index];
  if (word === undefined) return;
  if (typeof slot === "string") args[slot] = word;
  else if ("rest" in slot) args[slot.rest] = index === 0 ? words.join(" ") : words.slice(index).join(" ");
  else if (word.toLowerCase() === slot.keyword) args[slot.arg] = slot.keyword;
}
