import { type Command, InvalidArgumentError } from "commander";
import { listAccounts } from "../../db/accounts.ts";
import { ROLES, type Role } from "../../db/schema-enums.ts";
import { assignRole, overridePanelLimit, parseRole, requireAccount } from "../../server/core/accounts.ts";
import { withCliContext } from "../cli-context.ts";
import { type CliIo, type GlobalOptions, printJson, printTable } from "../output.ts";

const ROLE_LIST = ROLES.map((r) => r.toLowerCase()).join(", ");

function roleArgument(value: string): Role {
  const role = parseRole(value);
  if (!role) throw new InvalidArgumentError(`unknown role "${value}"; the roles are ${ROLE_LIST}`);
  return role;
}

export const PANEL_OVERRIDE_MAX = 1_000_000;

function overrideArgument(value: string): number | null {
  if (value.trim().toLowerCase() === "off") return null;
  const n = /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > PANEL_OVERRIDE_MAX) {
    throw new InvalidArgumentError(
      `"${value}" must be a whole number from 1 to ${PANEL_OVERRIDE_MAX}, or "off"`,
    );
  }
  return n;
}

export function registerRoleCommands(program: Command, io: CliIo, globals: () => GlobalOptions): void {
  const role = program.command("role").description("assign roles and panel limits");

  role
    .command("set")
    .description("assign a role (default, pro, vip or partner); applies on the next request")
    .argument("<login>", "the streamer's login")
    .argument("<role>", ROLE_LIST, roleArgument)
    .action((login: string, newRole: Role) =>
      withCliContext(globals(), async (ctx) => {
        const account = await requireAccount(ctx, login);
        await assignRole(ctx, account, newRole, "cli");
        if (globals().json) printJson(io, { login: account.login, role: newRole });
        else io.out(`${account.login} is now ${newRole} (was ${account.role})`);
      }),
    );

  role
    .command("list")
    .description("every account with its role and panel limit override")
    .action(() =>
      withCliContext(globals(), async (ctx) => {
        const rows = (await listAccounts(ctx.db)).map((a) => ({
          login: a.login,
          role: a.role,
          panelLimitOverride: a.panelLimitOverride,
        }));
        if (globals().json) return printJson(io, rows);
        printTable(
          io,
          ["LOGIN", "ROLE", "PANEL OVERRIDE"],
          rows.map((r) => [
            r.login,
            r.role,
            r.panelLimitOverride === null ? "-" : `${r.panelLimitOverride}/min`,
          ]),
        );
      }),
    );

  role
    .command("override")
    .description("panel session limit for one account (requests per minute, or off)")
    .argument("<login>", "the streamer's login")
    .argument("<requests-per-minute|off>", `1–${PANEL_OVERRIDE_MAX}, or off`, overrideArgument)
    .action((login: string, limit: number | null) =>
      withCliContext(globals(), async (ctx) => {
        const account = await requireAccount(ctx, login);
        await overridePanelLimit(ctx, account, limit, "cli");
        if (globals().json) printJson(io, { login: account.login, panelLimitOverride: limit });
        else if (limit === null)
          io.out(`${account.login}: panel limit override removed (the role's limit applies)`);
        else io.out(`${account.login}: panel limit set to ${limit} requests per minute`);
      }),
    );
}
