import { ChatBotDataError } from "../../db/chat-bot-rules.ts";
import { getCustomCommand } from "../../db/custom-commands.ts";
import { COMMAND_NAMES } from "../bot/catalog.ts";
import type { CommandContext } from "../bot/context.ts";
import { commandSettings } from "../bot/settings.ts";
import { CHAT_BOT_TRIGGERS } from "../custom/reserved-names.ts";
import type { ActionInput } from "./model.ts";

/*
 * Which chat commands an action's command trigger may answer (CONTRACT §6 "Actions"): not a built-in
 * command's name or alias, whether it is on or off (turning it on must not take the action's line),
 * not a name the chat bot reads itself (`!addcom`, `!quote`, `!permit` …), not a custom command of
 * the channel. Custom commands in turn cannot take an action's name (db/actions.ts
 * listActionCommandNames, read by server/custom/ and the dashboard).
 */

type NamesContext = Pick<CommandContext, "db" | "settingsCache">;

const FIELD = "trigger.command";

/** Why the channel's actions cannot answer `!name`, or null when they may. */
export async function commandNameTaken(
  ctx: NamesContext,
  accountId: number,
  name: string,
): Promise<string | null> {
  const shown = `"!${name}"`;
  if (CHAT_BOT_TRIGGERS.includes(name))
    return `${shown} is the chat bot's own (commands, quotes, regulars, permit); an action needs a command of its own.`;
  const builtIns = await Promise.all(
    COMMAND_NAMES.map((command) => commandSettings(ctx, accountId, command)),
  );
  const builtIn = builtIns.find((s) => s.command.toLowerCase() === name || s.aliases.includes(name));
  if (builtIn)
    return `${shown} is cuebot's built-in command ${builtIn.command} or one of its aliases (on or off); an action needs a command of its own.`;
  if (await getCustomCommand(ctx.db, accountId, name))
    return `${shown} is a custom command of this channel; an action needs a command of its own.`;
  return null;
}

/** Refuses (ChatBotDataError naming `trigger.command`) an action whose command trigger is taken. */
export async function refuseTakenCommand(
  ctx: NamesContext,
  accountId: number,
  input: ActionInput,
): Promise<void> {
  if (input.trigger.type !== "command") return;
  const taken = await commandNameTaken(ctx, accountId, input.trigger.command);
  if (taken !== null) throw new ChatBotDataError("invalid_input", FIELD, taken);
}
