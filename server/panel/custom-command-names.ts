import { listActionCommandNames } from "../../db/actions.ts";
import { parseCommandName } from "../../db/chat-bot-rules.ts";
import { COMMAND_NAMES } from "../bot/catalog.ts";
import { commandSettings } from "../bot/settings.ts";
import { triggerTable } from "../chat/triggers.ts";
import { ApiError } from "../core/errors.ts";
import { REPLIES } from "../custom/changes.ts";
import { CHAT_BOT_TRIGGERS } from "../custom/reserved-names.ts";
import type { Context } from "../runtime.ts";
import { FIELD_HEADER, fieldError } from "./chat-bot-input.ts";

/**
 * The names a custom command cannot take in this channel right now (CONTRACT §6: "built-in commands
 * cannot be replaced while they are on"): the triggers of the built-in commands that are on, names and
 * aliases, as native chat matches them (chat/triggers.ts), and the chat bot's own triggers (`!commands`,
 * `!addcom`, `!quote`, `!regulars` …, custom/reserved-names.ts), which chat reads before any command.
 * The commands the channel's actions answer are refused apart (db/actions.ts listActionCommandNames).
 */
export async function takenByCuebot(ctx: Context, accountId: number): Promise<ReadonlySet<string>> {
  const settings = await Promise.all(
    COMMAND_NAMES.map((command) => commandSettings(ctx, accountId, command)),
  );
  return new Set([...triggerTable(settings).keys(), ...CHAT_BOT_TRIGGERS]);
}

/** Refuses a name cuebot answers itself (an action's command as a built-in's), in the words chat uses (custom/changes.ts). */
export async function refuseCuebotNames(ctx: Context, accountId: number, name: string): Promise<void> {
  if (CHAT_BOT_TRIGGERS.includes(name)) {
    throw fieldError("body field", "name", `is not accepted: ${REPLIES.reserved(name)}`);
  }
  if ((await listActionCommandNames(ctx.db, accountId)).has(name)) {
    throw new ApiError(409, "builtin_command", REPLIES.action(name), { [FIELD_HEADER]: "name" });
  }
  if ((await takenByCuebot(ctx, accountId)).has(name)) {
    throw new ApiError(409, "builtin_command", REPLIES.builtIn(name), { [FIELD_HEADER]: "name" });
  }
}

/** A command's name from the path (`discord`, `!discord` as %21discord), lower case, or a 400. */
export function commandNameParam(raw: string): string {
  const name = parseCommandName(raw);
  if (name === null) {
    throw fieldError("path parameter", "name", "must be a command name: 1 to 32 letters a–z, digits or _.");
  }
  return name;
}

export const noSuchCommand = (name: string) =>
  new ApiError(404, "not_found", REPLIES.notFound(name), { [FIELD_HEADER]: "name" });
