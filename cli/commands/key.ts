import type { Command } from "commander";
import { requireAccount, revealApiKey, rotateApiKey } from "../../server/core/accounts.ts";
import { withCliContext } from "../cli-context.ts";
import type { CliIo, GlobalOptions } from "../output.ts";
import { printJson } from "../output.ts";

export function registerKeyCommands(program: Command, io: CliIo, globals: () => GlobalOptions): void {
  const key = program.command("key").description("show or rotate an account's API key");

  key
    .command("show")
    .description("print the current API key")
    .argument("<login>", "the streamer's login")
    .action((login: string) =>
      withCliContext(globals(), async (ctx) => {
        const account = await requireAccount(ctx, login);
        const apiKey = await revealApiKey(ctx, account, "cli");
        if (globals().json) printJson(io, { login: account.login, apiKey });
        else io.out(apiKey);
      }),
    );

  key
    .command("rotate")
    .description("issue a new API key; the old one stops working at once")
    .argument("<login>", "the streamer's login")
    .action((login: string) =>
      withCliContext(globals(), async (ctx) => {
        const account = await requireAccount(ctx, login);
        const apiKey = await rotateApiKey(ctx, account, "cli");
        if (globals().json) printJson(io, { login: account.login, apiKey });
        else io.out(apiKey);
      }),
    );
}
