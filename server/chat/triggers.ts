import { foldedWord } from "../../db/chat-bot-rules.ts";
import type { CommandName } from "../bot/catalog.ts";
import type { ChatMessageEvent } from "../live/eventsub-message.ts";

/** Trigger word (lower case, without "!") → the command it runs; only enabled commands are in it. */
export type TriggerTable = ReadonlyMap<string, CommandName>;

export interface ChatCommandCall {
  command: CommandName;
  /** The words after the trigger (at most 20, each at most 100 characters). */
  args: string[];
}

const MAX_ARGS = 20;
const MAX_ARG_LENGTH = 100;

/** Builds the table from each command's settings: its name and aliases, when it is enabled. */
export function triggerTable(
  commands: readonly { command: CommandName; enabled: boolean; aliases: readonly string[] }[],
): TriggerTable {
  const table = new Map<string, CommandName>();
  for (const c of commands) {
    if (!c.enabled) continue;
    table.set(c.command.toLowerCase(), c.command);
    for (const alias of c.aliases) if (!table.has(alias)) table.set(alias, c.command);
  }
  return table;
}

/**
 * The command a chat message asks for (CONTRACT §6 "Native chat"), or null: the first word must be
 * "!" plus a trigger, case-insensitively (letters a–z, digits and `_`, checked before folding). A reply's leading "@parent " (added by Twitch's reply UI)
 * is skipped first.
 */
export function matchCommand(
  message: Pick<ChatMessageEvent, "text" | "replyParentLogin">,
  triggers: TriggerTable,
): ChatCommandCall | null {
  let text = message.text.trim();
  if (
    message.replyParentLogin &&
    text.toLowerCase().startsWith(`@${message.replyParentLogin.toLowerCase()}`)
  ) {
    text = text.slice(message.replyParentLogin.length + 1).trimStart();
  }
  if (!text.startsWith("!")) return null;
  const words = text.slice(1).split(/\s+/u);
  // Checked before it is folded: "!pic\u212A" (the Kelvin sign) is no "!pick".
  const trigger = foldedWord(words[0] ?? "");
  const command = trigger === null ? undefined : triggers.get(trigger);
  if (!command) return null;
  const args = words
    .slice(1)
    .filter((w) => w !== "")
    .slice(0, MAX_ARGS)
    .map((w) => w.slice(0, MAX_ARG_LENGTH));
  return { command, args };
}

/**
 * Whether cuebot should look at a message at all: not its own (no loops), and in shared chat only
 * what was typed in this channel (a user-token reply is posted to every channel of the session).
 */
export function isForUs(event: ChatMessageEvent, senderId: string): boolean {
  if (event.chatterId === senderId) return false;
  return typedHere(event);
}

/** In shared chat, whether the message was typed in this channel (not only relayed into it). */
export function typedHere(event: ChatMessageEvent): boolean {
  return event.sourceBroadcasterId === null || event.sourceBroadcasterId === event.broadcasterId;
}
