import type { Command } from "commander";
import type { CliIo, GlobalOptions } from "../output.ts";

export function registerDoctorCommand(program: Command, io: CliIo, globals: () => GlobalOptions): void {
  program
    .command("doctor")
    .description(
      "check the data folder, database, public URL, Twitch application, game key, shared stores and server; changes nothing",
    )
    .action(async () => {
      const { runDoctorChecks } = await import("../actions/doctor.ts");
      await runDoctorChecks(io, globals());
    });
}
