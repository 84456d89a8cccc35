import { doctorExitCode, runDoctor } from "../../server/doctor.ts";
import { loadCliConfig } from "../cli-context.ts";
import { CliFailure, type CliIo, type GlobalOptions, printJson, printTable } from "../output.ts";

/** `cuebot doctor`: one line per check (server/doctor.ts), exit 1 when any failed. */
export async function runDoctorChecks(io: CliIo, globals: GlobalOptions): Promise<void> {
  const config = loadCliConfig(globals);
  const results = await runDoctor(config);
  const failed = results.filter((r) => r.status === "fail").length;
  if (globals.json) printJson(io, { ok: doctorExitCode(results) === 0, checks: results });
  else
    printTable(
      io,
      ["STATUS", "CHECK", "DETAIL"],
      results.map((r) => [r.status, r.check, r.detail]),
    );
  if (failed > 0) throw new CliFailure(`${failed} check${failed === 1 ? "" : "s"} failed`);
}
