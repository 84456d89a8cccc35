import { expect } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Subprocess } from "bun";
import { CONFIG_FILE, loadConfig } from "../../server/core/config.ts";
import { createLogger } from "../../server/core/log.ts";
import { openContext } from "../../server/runtime.ts";
import { createTestAccount, onPostgres } from "./context.ts";
import { createTestDatabase } from "./engines.ts";

export const REPO_ROOT = resolve(import.meta.dir, "../..");
export const CLI_ENTRY = join(REPO_ROOT, "cli", "main.ts");
/** How the CLI is started from source: `bun cli/main.ts …`. */
export const SOURCE_CLI: readonly string[] = [process.execPath, CLI_ENTRY];

/** The test runner's environment without any CUEBOT_* setting, so only what a test passes counts. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith("CUEBOT_")) env[name] = value;
  }
  return { ...env, NO_COLOR: "1", ...extra };
}

export interface RunOptions {
  /** Working folder; defaults to a fresh scratch folder so nothing lands in the repository. */
  cwd: string;
  env?: Record<string, string>;
  /** The program to run instead of `bun cli/main.ts` (the compiled binary, or a setpriv prefix). */
  command?: readonly string[];
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs one command line to completion as a real process. */
export async function runCuebot(args: string[], options: RunOptions): Promise<CliResult> {
  const proc = Bun.spawn([...(options.command ?? SOURCE_CLI), ...args], {
    cwd: options.cwd,
    env: cleanEnv(options.env),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}

/** Collects a stream's text as it arrives, so a test can wait for a line while the process runs. */
class StreamText {
  text = "";
  readonly done: Promise<void>;

  constructor(stream: ReadableStream<Uint8Array>) {
    this.done = (async () => {
      const decoder = new TextDecoder();
      const reader = stream.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        this.text += decoder.decode(value, { stream: true });
      }
      this.text += decoder.decode();
    })();
  }
}

export interface ServeProcess {
  proc: Subprocess<"ignore", "pipe", "pipe">;
  /** `http://host:port` from the "listening on" line. */
  url: string;
  stdout(): string;
  stderr(): string;
  /** Sends the signal and waits for the exit code (SIGKILL after `timeoutMs`). */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<number>;
  /** Waits for the exit code without sending anything (SIGKILL after `timeoutMs`). */
  exited(timeoutMs?: number): Promise<number>;
}

/**
 * Keeps track of what a test file creates (folders, processes) so `afterEach(() => scratch.cleanup())`
 * removes every folder and kills every process still running, whatever the test did.
 */
export class Scratch {
  readonly #dirs: string[] = [];
  readonly #procs = new Set<Subprocess>();

  dir(prefix = "cuebot-cli-"): string {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    this.#dirs.push(dir);
    return dir;
  }

  run(args: string[], options: RunOptions): Promise<CliResult> {
    return runCuebot(args, options);
  }

  /** Starts a long-running command (serve) and waits for its "listening on" line. */
  async serve(args: string[], options: RunOptions & { timeoutMs?: number }): Promise<ServeProcess> {
    const proc = Bun.spawn([...(options.command ?? SOURCE_CLI), ...args], {
      cwd: options.cwd,
      env: cleanEnv(options.env),
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    this.#procs.add(proc);
    const out = new StreamText(proc.stdout);
    const err = new StreamText(proc.stderr);
    const deadline = Date.now() + (options.timeoutMs ?? 15_000);
    let url: string | undefined;
    while (!url) {
      // A complete line only: the URL is followed by a quote (json) or a space/newline (pretty).
      url = /listening on (http:\/\/[^\s"]+)["\s]/.exec(`${out.text}${err.text}`)?.[1];
      if (url) break;
      if (proc.exitCode !== null || Date.now() > deadline) {
        proc.kill("SIGKILL");
        await proc.exited;
        throw new Error(
          `serve did not report "listening on" (exit ${proc.exitCode ?? proc.signalCode})\nstdout: ${out.text}\nstderr: ${err.text}`,
        );
      }
      await Bun.sleep(10);
    }
    const exited = async (timeoutMs = 15_000) => {
      const timer = setTimeout(() => proc.kill("SIGKILL"), timeoutMs);
      const code = await proc.exited;
      clearTimeout(timer);
      await Promise.all([out.done, err.done]);
      this.#procs.delete(proc);
      return code;
    };
    return {
      proc,
      url,
      stdout: () => out.text,
      stderr: () => err.text,
      exited,
      stop: (signal = "SIGTERM", timeoutMs = 15_000) => {
        proc.kill(signal);
        return exited(timeoutMs);
      },
    };
  }

  /** Kills every process started here that is still running. */
  async killProcesses(): Promise<void> {
    for (const proc of this.#procs) {
      proc.kill("SIGKILL");
      await proc.exited;
    }
    this.#procs.clear();
  }

  async cleanup(): Promise<void> {
    await this.killProcesses();
    for (const dir of this.#dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  }
}

/** A PostgreSQL URL nothing answers at (port 1), with a password that must never be printed. */
export const UNREACHABLE_POSTGRES = "postgres://cuebot:s3cret@127.0.0.1:1/cuebot";

/** `args` run with UNREACHABLE_POSTGRES: exit 1 naming it (password hidden), no SQLite file instead. */
export async function expectPostgresRefused(scratch: Scratch, args: string[]): Promise<CliResult> {
  const cwd = scratch.dir();
  const dataDir = join(cwd, "data");
  const result = await scratch.run([...args, "--data-dir", dataDir], {
    cwd,
    env: { CUEBOT_DATABASE_URL: UNREACHABLE_POSTGRES },
  });
  expect(result.code).toBe(1);
  expect(result.stderr).toStartWith(
    "cuebot: cannot use the PostgreSQL database at postgres://cuebot:***@127.0.0.1:1/cuebot: ",
  );
  expect(result.stderr).not.toContain("s3cret");
  expect(existsSync(join(dataDir, "cuebot.db"))).toBe(false);
  return result;
}

/**
 * Creates an account in a data folder the way a first login does, from outside the CLI (the CLI
 * cannot create accounts). The connection is closed again before returning.
 */
export async function seedAccount(
  dataDir: string,
  login: string,
  displayName = login,
  env: Record<string, string> = {},
) {
  const ctx = await openContext(loadConfig({ dataDir, env }), {
    log: createLogger({ level: "error", format: "json", write: () => {} }),
  });
  try {
    return await createTestAccount(ctx, { login, displayName });
  } finally {
    await ctx.close();
  }
}

/**
 * Runs `init` in `cwd` and returns the new data folder (`<cwd>/data`). When the suite runs on
 * PostgreSQL (`onPostgres`), the folder's config.json then names a fresh test database, so every
 * process started on the folder (the CLI, serve, seedAccount) uses it; `database: "sqlite"` keeps a
 * folder on its embedded file whatever the run (tests of SQLite itself: backup, db copy's source).
 */
export async function initDataDir(
  cwd: string,
  command?: readonly string[],
  options: { database?: "sqlite" } = {},
): Promise<string> {
  const dataDir = join(cwd, "data");
  const result = await runCuebot(["init", "--data-dir", dataDir], {
    cwd,
    ...(command ? { command } : {}),
  });
  if (result.code !== 0) throw new Error(`init failed: ${result.stderr}`);
  if (onPostgres && options.database !== "sqlite") {
    // The whole test server is removed at exit (stopAllEngines), its databases with it.
    const database = await createTestDatabase();
    const file = join(dataDir, CONFIG_FILE);
    const config = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...config, databaseUrl: database.url }, null, 2));
  }
  return dataDir;
}

/** The embedded SQLite migrations, as `migrate` reports them: how many, and the newest's tag. */
export const SCHEMA = (() => {
  const journal = JSON.parse(
    readFileSync(new URL("../../db/migrations/meta/_journal.json", import.meta.url), "utf8"),
  ) as { entries: { tag: string }[] };
  const tags = journal.entries.map((e) => e.tag);
  return { version: tags.length, latest: tags[tags.length - 1] ?? "", tags };
})();
