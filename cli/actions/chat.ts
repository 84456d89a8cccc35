import { listAccounts } from "../../db/accounts.ts";
import { listChatStates, loadChatBot } from "../../db/chat.ts";
import { storedChatStatus } from "../../server/chat/status.ts";
import { withCliContext } from "../cli-context.ts";
import { type CliIo, type GlobalOptions, printJson, printTable } from "../output.ts";

/** `cuebot chat list`: the accounts with native chat on, and the state the running server stored. */
export function listChatChannels(io: CliIo, globals: GlobalOptions): Promise<void> {
  return withCliContext(globals, async (ctx) => {
    const enabled = new Set((await listChatStates(ctx.db)).filter((c) => c.enabled).map((c) => c.accountId));
    const accounts = (await listAccounts(ctx.db)).filter((a) => enabled.has(a.id));
    const rows = [];
    for (const account of accounts) {
      const status = await storedChatStatus(ctx, account.id);
      const bot = await loadChatBot(ctx.db, ctx.secrets, account.id);
      rows.push({
        login: account.login,
        state: status.state,
        since: status.since === null ? null : new Date(status.since).toISOString(),
        reason: status.reason,
        speaksAs: bot ? bot.login : account.login,
      });
    }
    if (globals.json) return printJson(io, rows);
    if (rows.length === 0) {
      io.out("No account has native chat turned on (dashboard → Chat).");
      return;
    }
    printTable(
      io,
      ["LOGIN", "STATE", "SINCE", "SPEAKS AS", "REASON"],
      rows.map((r) => [
        r.login,
        r.state,
        r.since?.slice(0, 19).replace("T", " ") ?? "",
        r.speaksAs,
        r.reason ?? "",
      ]),
    );
  });
}
