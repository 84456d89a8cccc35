import { requireAccount, rotateOverlayToken } from "../../server/core/accounts.ts";
import { withCliContext } from "../cli-context.ts";
import { type CliIo, type GlobalOptions, printJson } from "../output.ts";

/** `cuebot overlay rotate <login>`. */
export function rotateAccountOverlayToken(io: CliIo, globals: GlobalOptions, login: string): Promise<void> {
  return withCliContext(globals, async (ctx) => {
    const account = await requireAccount(ctx, login);
    const overlayToken = await rotateOverlayToken(ctx, account, "cli");
    if (globals.json) printJson(io, { login: account.login, overlayToken });
    else io.out(overlayToken);
  });
}
