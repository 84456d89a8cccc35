#!/usr/bin/env bun
// The cuebot program. Each module in cli/commands/ registers a command with commander (its options,
// arguments, their parsing and its help) and loads what the command does, from cli/actions/ (`serve`:
// server/start.ts), with import() when it runs: no command loads another's implementation, and
// `cuebot role set` loads the config, the SQLite core and the accounts code (tests/cli/modules.test.ts).
import { Command, CommanderError } from "commander";
import pkg from "../package.json" with { type: "json" };
import { registerBackupCommand } from "./commands/backup.ts";
import { registerChatCommands } from "./commands/chat.ts";
import { registerDbCommands } from "./commands/db.ts";
import { registerDoctorCommand } from "./commands/doctor.ts";
import { registerInitCommand } from "./commands/init.ts";
import { registerKeyCommands } from "./commands/key.ts";
import { registerMigrateCommand } from "./commands/migrate.ts";
import { registerOverlayCommands } from "./commands/overlay.ts";
import { registerRoleCommands } from "./commands/role.ts";
import { registerServeCommand } from "./commands/serve.ts";
import { registerUsersCommands } from "./commands/users.ts";
import { CliFailure, type CliIo, flushOutput, type GlobalOptions, processIo } from "./output.ts";

export function buildProgram(io: CliIo): Command {
  const program = new Command("cuebot");
  const globals = (): GlobalOptions => program.opts<GlobalOptions>();
  program
    .description(
      "Self-hosted chat-bot commands, dashboard, overlays and game statistics for Twitch streamers.",
    )
    .version(pkg.version, "--version", "print the version")
    .option("--data-dir <dir>", "data folder (default ./cuebot-data, or CUEBOT_DATA_DIR)")
    .option("--json", "machine-readable output on stdout")
    .exitOverride()
    .showHelpAfterError("(run with --help for usage)")
    .configureOutput({
      writeOut: (text) => io.out(text.replace(/\n$/, "")),
      writeErr: (text) => io.err(text.replace(/\n$/, "")),
      outputError: (text, write) => write(`cuebot: ${text.replace(/^error: /, "")}`),
    });

  registerInitCommand(program, io, globals);
  registerServeCommand(program, io, globals);
  registerRoleCommands(program, io, globals);
  registerKeyCommands(program, io, globals);
  registerOverlayCommands(program, io, globals);
  registerUsersCommands(program, io, globals);
  registerChatCommands(program, io, globals);
  registerBackupCommand(program, io, globals);
  registerMigrateCommand(program, io, globals);
  registerDbCommands(program, io, globals);
  registerDoctorCommand(program, io, globals);
  return program;
}

/** Runs one command line and returns the exit code: 0 success, 1 failure, 2 usage error. */
export async function runCli(args: string[], io: CliIo = processIo): Promise<number> {
  const program = buildProgram(io);
  if (args.length === 0) {
    program.outputHelp();
    return 2;
  }
  try {
    await program.parseAsync(args, { from: "user" });
    return 0;
  } catch (error) {
    // Help or version asked for is exit 0; help shown because a group lacks its subcommand
    // (`cuebot role`) reports exit 1 to us, and like every parse error it is a usage error.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof CliFailure) {
      io.err(`cuebot: ${error.message}`);
      return error.exitCode;
    }
    const explained = await explainedFailure(error);
    if (explained !== null) {
      io.err(`cuebot: ${explained}`);
      return 1;
    }
    io.err(`cuebot: unexpected error: ${(error as Error).message}`);
    return 1;
  }
}

/**
 * The message of a failure that is one `cuebot: …` line although no command turned it into a
 * CliFailure: a login with no account, PostgreSQL unusable at start (`serve` and the commands alike).
 * Their modules are loaded here, on the way out, so that a command that never meets them does not
 * load them (a SQLite command loads no PostgreSQL code; cli-context.ts lists the other such failures).
 */
async function explainedFailure(error: unknown): Promise<string | null> {
  const { AccountNotFoundError } = await import("../server/core/accounts.ts");
  if (error instanceof AccountNotFoundError) return error.message;
  const { PostgresStorageError } = await import("../server/core/postgres-storage.ts");
  if (error instanceof PostgresStorageError) return error.message;
  return null;
}

if (import.meta.main) {
  const code = await runCli(process.argv.slice(2));
  await flushOutput();
  process.exit(code);
}
