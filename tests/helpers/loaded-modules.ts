// Run as a process: `bun tests/helpers/loaded-modules.ts <cli args…>` runs one CLI command in this
// process and then prints, on stderr's last line, every module it loaded (JSON), so a test can see
// what a command pulls in. `serve` never returns on its own: its modules are printed once /healthz
// answers on its `--port` (what an idle server holds after start), then the process exits.
import { runCli } from "../../cli/main.ts";

const args = process.argv.slice(2);

async function healthy(port: string): Promise<number> {
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      await res.arrayBuffer();
      if (res.status === 200) return 0;
    } catch {
      // not listening yet
    }
    await Bun.sleep(20);
  }
}

const port = args[0] === "serve" ? args[args.indexOf("--port") + 1] : undefined;
const code = await (port ? Promise.race([runCli(args), healthy(port)]) : runCli(args));
process.stderr.write(`\nLOADED ${JSON.stringify(Object.keys(require.cache))}\n`);
process.exit(code);
