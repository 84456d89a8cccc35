import type { Command } from "commander";
import { type CliIo, CliUsageError, type GlobalOptions } from "../output.ts";

export function registerUsersCommands(program: Command, io: CliIo, globals: () => GlobalOptions): void {
  const users = program.command("users").description("list, inspect, export and delete accounts");

  users
    .command("list")
    .description("every account")
    .action(async () => {
      const { listUsers } = await import("../actions/users.ts");
      await listUsers(io, globals());
    });

  users
    .command("show")
    .description("one account's details (never its key or tokens)")
    .argument("<login>", "the streamer's login")
    .action(async (login: string) => {
      const { showUser } = await import("../actions/users.ts");
      await showUser(io, globals(), login);
    });

  users
    .command("export")
    .description("all data of one account as JSON (never keys or tokens)")
    .argument("<login>", "the streamer's login")
    .option("--out <file>", "write to this file instead of standard output")
    .action(async (login: string, options: { out?: string }) => {
      const { exportUser } = await import("../actions/users.ts");
      await exportUser(io, globals(), login, options);
    });

  users
    .command("delete")
    .description("delete an account and all its data, revoking its provider token")
    .argument("<login>", "the streamer's login")
    .option("--yes", "confirm the deletion")
    .action(async (login: string, options: { yes?: boolean }) => {
      if (!options.yes) {
        throw new CliUsageError(
          `refusing to delete "${login}" without --yes (this removes the account and all of its data)`,
        );
      }
      const { deleteUser } = await import("../actions/users.ts");
      await deleteUser(io, globals(), login);
    });
}
