import type { Command } from "commander";
import { requireAccount, rotateOverlayToken } from "../../server/core/accounts.ts";
import { withCliContext } from "../cli-context.ts";
import { type CliIo, type GlobalOptions, printJson } from "../output.ts";

export function registerOverlayCommands(program: Command, io: CliIo, globals: () => GlobalOptions): void {
  program
    .command("overlay")
    .description("manage overlay tokens")
    .command("rotate")
    .description("issue a new overlay token; overlays using the old one stop updating")
    .argument("<login>", "the streamer's login")
    .action((login: string) =>
      withCliContext(globals(), async (ctx) => {
        const account = await requireAccount(ctx, login);
        const overlayToken = await rotateOverlayToken(ctx, account, "cli");
        if (globals().json) printJson(io, { login: account.login, overlayToken });
        else io.out(overlayToken);
      }),
    );
}
