import { type Command, InvalidArgumentError } from "commander";
import { parseRole, ROLES, type Role } from "../../db/schema-enums.ts";
import type { CliIo, GlobalOptions } from "../output.ts";

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
    .action(async (login: string, newRole: Role) => {
      const { setRole } = await import("../actions/role.ts");
      await setRole(io, globals(), login, newRole);
    });

  role
    .command("list")
    .description("every account with its role and panel limit override")
    .action(async () => {
      const { listRoles } = await import("../actions/role.ts");
      await listRoles(io, globals());
    });

  role
    .command("override")
    .description("panel session limit for one account (requests per minute, or off)")
    .argument("<login>", "the streamer's login")
    .argument("<requests-per-minute|off>", `1–${PANEL_OVERRIDE_MAX}, or off`, overrideArgument)
    .action(async (login: string, limit: number | null) => {
      const { overridePanel } = await import("../actions/role.ts");
      await overridePanel(io, globals(), login, limit);
    });
}
