import type { Command } from "commander";
import { doctorExitCode, runDoctor } from "../../server/doctor.ts";
import { loadCliConfig } from "../cli-context.ts";
import { CliFailure, type CliIo, type GlobalOptions, printJson, printTable } from "../output.ts";

export function registerDoctorCommand(program: Command, io: CliIo, globals: () => GlobalOptions): void {
  program
    .command("doctor")
    .description(
      "check the data folder, database, public URL, Twitch application, game key, shared stores and server; changes nothing",
    )
    .action(async () => {
      const config = loadCliConfig(globals());
      const results = await runDoctor(config);
      const failed = results.filter((r) => r.status === "fail").length;
      if (globals().json) printJson(io, { ok: doctorExitCode(results) === 0, checks: results });
      else
        printTable(
          io,
          ["STATUS", "CHECK", "DETAIL"],
          results.map((r) => [r.status, r.check, r.detail]),
        );
      if (failed > 0) throw new CliFailure(`${failed} check${failed === 1 ? "" : "s"} failed`);
    });
}
