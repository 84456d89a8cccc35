// Run as a process: `bun tests/helpers/loaded-modules.ts <cli args…>` runs one CLI command in this
// process and then prints, on stderr's last line, every module it loaded (JSON), so a test can see
// what a command pulls in.
import { runCli } from "../../cli/main.ts";

const code = await runCli(process.argv.slice(2));
process.stderr.write(`\nLOADED ${JSON.stringify(Object.keys(require.cache))}\n`);
process.exit(code);
