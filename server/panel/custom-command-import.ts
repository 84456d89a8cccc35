import type { Account } from "../../db/accounts.ts";
import { listActionCommandNames } from "../../db/actions.ts";
import { ChatBotDataError, checkText } from "../../db/chat-bot-rules.ts";
import { addCustomCommand, type CustomCommand, listCustomCommands } from "../../db/custom-commands.ts";
import { ApiError } from "../core/errors.ts";
import type { CustomCommand as PlannedCommand } from "../custom/changes.ts";
import { type ImportFormat, type ImportPlan, planImport } from "../custom/import.ts";
import { ALIAS_PASS_THROUGH } from "../custom/management.ts";
import { shownName } from "../custom/names.ts";
import type { Context } from "../runtime.ts";
import {
  bodyObject,
  booleanField,
  fieldError,
  type JsonObject,
  storeRefusal,
  textField,
} from "./chat-bot-input.ts";
import { takenByCuebot } from "./custom-command-names.ts";

/**
 * The import of a Nightbot or StreamElements command list from the dashboard (issue 24): the plan of
 * server/custom/import.ts over this channel's commands and the built-ins that are on, held to the
 * store's own rules so that what the plan offers is what applying it stores; and the store of its
 * `add` list in one transaction.
 */

export const IMPORT_EXAMPLE = '{"format": "nightbot", "body": {"commands": […]}, "apply": false}';

export interface ImportRequest {
  format: ImportFormat | "detect";
  /** The list as the bot's API returns it, or Nightbot's command table as text. */
  body: unknown;
  apply: boolean;
}

export function importRequestOf(body: unknown): ImportRequest {
  const fields: JsonObject = bodyObject(body, ["format", "body", "apply"], IMPORT_EXAMPLE);
  const format = textField(fields, "format") ?? "detect";
  if (format !== "nightbot" && format !== "streamelements" && format !== "detect") {
    throw fieldError("body field", "format", "must be one of nightbot, streamelements, detect.");
  }
  if (fields.body === undefined) {
    throw fieldError("body field", "body", "is missing: paste the bot's command list.");
  }
  return { format, body: fields.body, apply: booleanField(fields, "apply") ?? false };
}

/** The command as the store takes it: an alias without text hands the caller's words on, as from chat. */
function storeInput(command: PlannedCommand) {
  return {
    name: command.name,
    response: command.response === "" && command.aliasOf ? ALIAS_PASS_THROUGH : command.response,
    userLevel: command.level,
    cooldownSeconds: command.cooldownSeconds,
    userCooldownSeconds: command.userCooldownSeconds,
    aliasTarget: command.aliasOf,
    count: command.count,
  };
}

/**
 * The plan with what the store would refuse moved to `unsupported` with the store's reason (the
 * plan reads a file more leniently: C1 control characters, broken surrogates), so applying the plan
 * shown stores exactly its `add` list.
 */
function storable(plan: ImportPlan): ImportPlan {
  const add: PlannedCommand[] = [];
  const unsupported = [...plan.unsupported];
  for (const command of plan.add) {
    try {
      checkText(storeInput(command).response, "response", "The response");
      add.push(command);
    } catch (error) {
      if (!(error instanceof ChatBotDataError)) throw error;
      unsupported.push({ name: command.name, why: error.message });
    }
  }
  const kept = new Set(add.map((command) => command.name));
  return { ...plan, add, adjusted: plan.adjusted.filter((note) => kept.has(note.name)), unsupported };
}

/** What importing the list would do to this channel now; a malformed list is one 400 naming its path. */
export async function importPlan(
  ctx: Context,
  account: Account,
  request: ImportRequest,
): Promise<ImportPlan> {
  const existing = await listCustomCommands(ctx.db, account.id);
  return storable(
    planImport({
      body: request.body,
      format: request.format,
      existingNames: existing.map((command) => command.name),
      builtinNamesOn: await takenByCuebot(ctx, account.id),
      actionCommands: await listActionCommandNames(ctx.db, account.id),
    }),
  );
}

/**
 * Stores the plan's `add` list in one transaction: every command or, on any refusal (a name taken
 * since the plan was made, the channel's limit reached), none; the refusal names the command.
 */
export async function storeImport(
  ctx: Context,
  account: Account,
  add: readonly PlannedCommand[],
): Promise<CustomCommand[]> {
  const now = ctx.clock.now();
  return await ctx.db.transaction(async (tx) => {
    const stored: CustomCommand[] = [];
    for (const command of add) {
      try {
        stored.push(await addCustomCommand(tx, account.id, storeInput(command), now));
      } catch (error) {
        if (!(error instanceof ChatBotDataError)) throw error;
        const refusal = storeRefusal(error);
        throw new ApiError(
          refusal.status,
          refusal.code,
          `Nothing was imported: ${shownName(command.name)} was refused. ${refusal.message}`,
          refusal.headers,
        );
      }
    }
    return stored;
  });
}
