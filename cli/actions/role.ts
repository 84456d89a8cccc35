import { listAccounts } from "../../db/accounts.ts";
import type { Role } from "../../db/schema-enums.ts";
import { assignRole, overridePanelLimit, requireAccount } from "../../server/core/accounts.ts";
import { withCliContext } from "../cli-context.ts";
import { type CliIo, type GlobalOptions, printJson, printTable } from "../output.ts";

/** `cuebot role set <login> <role>`. */
export function setRole(io: CliIo, globals: GlobalOptions, login: string, newRole: Role): Promise<void> {
  return withCliContext(globals, async (ctx) => {
    const account = await requireAccount(ctx, login);
    await assignRole(ctx, account, newRole, "cli");
    if (globals.json) printJson(io, { login: account.login, role: newRole });
    else io.out(`${account.login} is now ${newRole} (was ${account.role})`);
  });
}

/** `cuebot role list`. */
export function listRoles(io: CliIo, globals: GlobalOptions): Promise<void> {
  return withCliContext(globals, async (ctx) => {
    const rows = (await listAccounts(ctx.db)).map((a) => ({
      login: a.login,
      role: a.role,
      panelLimitOverride: a.panelLimitOverride,
    }));
    if (globals.json) return printJson(io, rows);
    printTable(
      io,
      ["LOGIN", "ROLE", "PANEL OVERRIDE"],
      rows.map((r) => [r.login, r.role, r.panelLimitOverride === null ? "-" : `${r.panelLimitOverride}/min`]),
    );
  });
}

/** `cuebot role override <login> <requests-per-minute|off>`; null removes the override. */
export function overridePanel(
  io: CliIo,
  globals: GlobalOptions,
  login: string,
  limit: number | null,
): Promise<void> {
  return withCliContext(globals, async (ctx) => {
    const account = await requireAccount(ctx, login);
    await overridePanelLimit(ctx, account, limit, "cli");
    if (globals.json) printJson(io, { login: account.login, panelLimitOverride: limit });
    else if (limit === null)
      io.out(`${account.login}: panel limit override removed (the role's limit applies)`);
    else io.out(`${account.login}: panel limit set to ${limit} requests per minute`);
  });
}
