// Builds the single executable: `npm run build` → dist/cuebot (one file; runs with no node_modules).
// Flags and why (DESIGN.md "Build", reference/platform-notes.md §2):
//   --format=esm with --bytecode: bytecode alone switches to CJS, which bakes the build machine's paths in.
//   --minify-whitespace --minify-syntax, never plain --minify: renaming identifiers breaks Elysia.
//   --sourcemap: the map is embedded, so stack traces name our files; the .map beside it is not shipped.
//   --no-compile-autoload-*: a stray .env or bunfig.toml in the folder it runs from must not change it.
//   --reject-unresolved: a computed import() would build silently and fail at run time.
//   --splitting: each import() target is a chunk of its own inside the binary, evaluated when imported.
//     In one bundle the builtins every module imports are hoisted to the top and loaded at start
//     (drizzle-orm/bun-sql's `SQL` from "bun" alone costs 5 ms), so `cuebot role set` paid for the
//     server's and PostgreSQL's code it never runs. The chunks' source maps are embedded too.
//   Worker threads (db/sqlite/database-worker-thread.ts) are entry points of their own, as Bun asks of
//   workers in a single-file binary; --entry-naming=[name].[ext] puts them beside the main module,
//   where `new URL("./<name>.ts", import.meta.url)` looks for them once the code is bundled (so two
//   workers must not share a file name). tests/binary checks that the worker runs in the binary.
// The version comes from package.json, inlined at build time (cli/main.ts imports it); checked below.
// Targets: this machine's → dist/cuebot, and linux-arm64 → dist/cuebot-linux-arm64 (a Raspberry Pi, an
// ARM VPS), cross-compiled: Bun fetches that target's runtime from the npm registry once and caches it
// (~1 s after that). `--host-only` builds dist/cuebot alone (what the tests and the bench need).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import pkg from "../package.json" with { type: "json" };

const root = resolve(import.meta.dir, "..");
const entry = join(root, "cli", "main.ts");
/** The code of each Worker the program starts (see the flags above). */
const workers = [join(root, "db", "sqlite", "database-worker-thread.ts")];
const outfile = join(root, "dist", "cuebot");
/** The cross-compiled targets, each beside dist/cuebot; checked by their ELF header (and run under qemu in CI). */
const crossTargets = [{ target: "bun-linux-arm64", outfile: join(root, "dist", "cuebot-linux-arm64") }];
const hostOnly = process.argv.includes("--host-only");
/** CI: a cross target that cannot be built fails the build (elsewhere it is a warning: see compile). */
const requireCross = process.argv.includes("--require-cross");

const BUILD_FLAGS = [
  "--compile",
  "--splitting",
  "--format=esm",
  "--bytecode",
  "--minify-whitespace",
  "--minify-syntax",
  "--sourcemap",
  "--no-compile-autoload-dotenv",
  "--no-compile-autoload-bunfig",
  "--reject-unresolved",
  "--entry-naming=[name].[ext]",
] as const;

function fail(message: string): never {
  console.error(`build: ${message}`);
  process.exit(1);
}

async function run(cmd: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn(cmd, {
    cwd,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, NO_COLOR: "1" },
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}

/** One `bun build --compile` of the program to `target` (this machine's when null) at `file`. */
/** Builds one executable; a cross target that cannot be built is a warning unless `--require-cross`. */
async function compile(file: string, target: string | null): Promise<boolean> {
  rmSync(file, { force: true });
  const flags = [...BUILD_FLAGS, ...(target ? [`--target=${target}`] : [])];
  const build = await run(
    [process.execPath, "build", ...flags, `--outfile=${file}`, entry, ...workers],
    root,
  );
  if (build.code === 0) return true;
  const what = `bun build${target ? ` --target=${target}` : ""} failed (exit ${build.code})`;
  if (target === null || requireCross) {
    process.stderr.write(build.stdout + build.stderr);
    fail(what);
  }
  // Bun fetches the other platform's runtime from the npm registry once: offline, dist/cuebot still builds.
  const reason = (build.stderr || build.stdout).trim().split("\n").at(-1) ?? "";
  console.warn(`build: ${relative(process.cwd(), file)} not built: ${what}: ${reason}`);
  return false;
}

/** The machine an ELF executable is for, from its header (e_machine): 62 x86-64, 183 AArch64. */
function elfMachine(file: string): number {
  const header = readFileSync(file).subarray(0, 20);
  if (header.toString("latin1", 1, 4) !== "ELF") fail(`${file} is not an ELF executable`);
  return header.readUInt16LE(18);
}

const AARCH64 = 183;

const startedAt = performance.now();
await compile(outfile, null);
const crossBuilt: string[] = [];
for (const cross of hostOnly ? [] : crossTargets) {
  if (!(await compile(cross.outfile, cross.target))) continue;
  if (elfMachine(cross.outfile) !== AARCH64) fail(`${cross.outfile} is not an AArch64 executable`);
  crossBuilt.push(cross.outfile);
}
// The source maps are inside the binary; the copies beside it (one per chunk) are only clutter.
for (const name of readdirSync(dirname(outfile))) {
  if (name.endsWith(".map")) rmSync(join(dirname(outfile), name), { force: true });
}

// Prove it stands alone and carries its version: run it from an empty folder, far from node_modules.
const empty = mkdtempSync(join(tmpdir(), "cuebot-build-check-"));
try {
  const version = await run([outfile, "--version"], empty);
  if (version.code !== 0 || version.stdout.trim() !== pkg.version) {
    fail(
      `dist/cuebot --version printed "${version.stdout.trim()}${version.stderr.trim()}", expected ${pkg.version}`,
    );
  }
} finally {
  rmSync(empty, { recursive: true, force: true });
}

const megabytes = (file: string) => (statSync(file).size / 1024 / 1024).toFixed(1);
const built = [outfile, ...crossBuilt]
  .map((file) => `${relative(process.cwd(), file) || file} (${megabytes(file)} MB)`)
  .join(", ");
const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
console.log(`built ${built}, cuebot ${pkg.version}, in ${seconds} s`);
