import type { Account } from "../../db/accounts.ts";
import { chatName } from "../core/chat-text.ts";
import { COMMANDS, type CommandInputOf, type CommandName } from "./catalog.ts";
import type { CommandContext } from "./context.ts";
import type { CommandDefinition } from "./definition.ts";
import { type CommandCall, runCommand } from "./runner.ts";

/** Runs one chat command for the key owner's channel, through the shared steps (enabled, cooldown, events). */
export function executeCommand<C extends CommandName>(
  ctx: CommandContext,
  account: Account,
  command: C,
  input: CommandInputOf<C>,
  options: Pick<CommandCall<C>, "test" | "preview" | "gate" | "unrecorded"> = {},
) {
  // C's definition reads C's arguments and options, which is what input and its settings hold.
  const definition: CommandDefinition = COMMANDS[command];
  return runCommand(
    {
      ctx,
      account,
      command,
      caller: input.caller.user ?? chatName(input.args.user) ?? "",
      test: options.test,
      preview: options.preview,
      gate: options.gate,
      unrecorded: options.unrecorded,
    },
    (settings) => definition.run(ctx, account, input, settings.options),
  );
}
