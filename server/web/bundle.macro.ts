// A Bun macro: the dashboard's TypeScript modules are bundled for the browser at build time and
// inlined as one string, so the binary serves them with nothing on disk and nothing from a CDN.
// Bun.build cannot run inside a macro (the bundler would wait on itself), so this runs the CLI.
import { join } from "node:path";

/** `server/web/<entry>` bundled for the browser (ESM, minified) as one script. */
export function bundleBrowserScript(entry: string): string {
  const result = Bun.spawnSync(
    [process.execPath, "build", join(import.meta.dir, entry), "--target=browser", "--format=esm", "--minify"],
    { env: { ...process.env, NO_COLOR: "1" }, stdout: "pipe", stderr: "pipe" },
  );
  if (result.exitCode !== 0) {
    throw new Error(`bundling ${entry} failed:\n${result.stderr.toString()}${result.stdout.toString()}`);
  }
  return result.stdout.toString();
}
