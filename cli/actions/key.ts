import { requireAccount, revealApiKey, rotateApiKey } from "../../server/core/accounts.ts";
import { withCliContext } from "../cli-context.ts";
import { type CliIo, type GlobalOptions, printJson } from "../output.ts";

/** `cuebot key show <login>`. */
export function showApiKey(io: CliIo, globals: GlobalOptions, login: string): Promise<void> {
  return withCliContext(globals, async (ctx) => {
    const account = await requireAccount(ctx, login);
    const apiKey = await revealApiKey(ctx, account, "cli");
    if (globals.json) printJson(io, { login: account.login, apiKey });
    else io.out(apiKey);
  });
}

/** `cuebot key rotate <login>`. */
export function rotateAccountApiKey(io: CliIo, globals: GlobalOptions, login: string): Promise<void> {
  return withCliContext(globals, async (ctx) => {
    const account = await requireAccount(ctx, login);
    const apiKey = await rotateApiKey(ctx, account, "cli");
    if (globals.json) printJson(io, { login: account.login, apiKey });
    else io.out(apiKey);
  });
}
