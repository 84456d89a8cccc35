import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { CLI_ENTRY, cleanEnv, initDataDir, Scratch, seedAccount } from "../helpers/cli.ts";

const scratch = new Scratch();
afterEach(() => scratch.cleanup());

describe("the cuebot program", () => {
  test("--version prints the package version and exits 0", async () => {
    const cwd = scratch.dir();
    const result = await scratch.run(["--version"], { cwd });
    expect(result).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: "" });
  });

  test("--help lists every command and the global options, exit 0", async () => {
    const cwd = scratch.dir();
    const result = await scratch.run(["--help"], { cwd });
    expect(result.code).toBe(0);
    for (const word of ["init", "serve", "role", "key", "overlay", "users", "backup", "migrate"]) {
      expect(result.stdout).toMatch(new RegExp(`^  ${word}\\b`, "m"));
    }
    for (const option of ["--data-dir", "--json", "--version", "--help"]) {
      expect(result.stdout).toContain(option);
    }
  });

  test("--help after a subcommand shows that command's help, exit 0", async () => {
    const cwd = scratch.dir();
    const result = await scratch.run(["role", "set", "--help"], { cwd });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Usage: cuebot role set [options] <login> <role>");
    const users = await scratch.run(["help", "users"], { cwd });
    expect(users.code).toBe(0);
    expect(users.stdout).toContain("Usage: cuebot users");
  });

  test("no command at all, an unknown command or a group without its subcommand: usage error, exit 2", async () => {
    const cwd = scratch.dir();
    expect((await scratch.run([], { cwd })).code).toBe(2);

    const unknown = await scratch.run(["frobnicate"], { cwd });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toStartWith("cuebot: unknown command 'frobnicate'");

    for (const group of ["role", "key", "overlay", "users"]) {
      const result = await scratch.run([group], { cwd });
      expect({ group, code: result.code }).toEqual({ group, code: 2 });
      expect(result.stderr).toContain(`Usage: cuebot ${group}`);
    }
  });

  test("an unknown option and a missing argument are usage errors (exit 2), nothing created", async () => {
    const cwd = scratch.dir();
    const option = await scratch.run(["init", "--no-such-flag"], { cwd });
    expect(option.code).toBe(2);
    expect(option.stderr).toStartWith("cuebot: unknown option '--no-such-flag'");
    const argument = await scratch.run(["key", "show"], { cwd });
    expect(argument.code).toBe(2);
    expect(argument.stderr).toStartWith("cuebot: missing required argument 'login'");
    expect(await Bun.file(join(cwd, "cuebot-data", "cuebot.db")).exists()).toBe(false);
  });

  test("global options work before and after the subcommand", async () => {
    const cwd = scratch.dir();
    const dataDir = await initDataDir(cwd);
    await seedAccount(dataDir, "alice", "Alice");

    const spellings = [
      ["--data-dir", dataDir, "--json", "users", "list"],
      ["users", "list", "--data-dir", dataDir, "--json"],
      ["--json", "users", "--data-dir", dataDir, "list"],
      ["users", "list", `--data-dir=${dataDir}`, "--json"],
    ];
    for (const args of spellings) {
      const result = await scratch.run(args, { cwd });
      expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 0, stderr: "" });
      expect((JSON.parse(result.stdout) as { login: string }[]).map((a) => a.login)).toEqual(["alice"]);
    }

    const version = await scratch.run(["users", "--version"], { cwd });
    expect(version.stdout).toBe(`${pkg.version}\n`);
  });

  test("an admin command on a folder without cuebot data: exit 1, says how to create it", async () => {
    const cwd = scratch.dir();
    const result = await scratch.run(["users", "list", "--data-dir", join(cwd, "nothing")], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `cuebot: no cuebot data in ${join(cwd, "nothing")} (run "cuebot init" or "cuebot serve" first, or pass --data-dir)\n`,
    );
  });

  test("a large answer reaches a slow reader complete (nothing is cut off at exit)", async () => {
    const cwd = scratch.dir();
    const dataDir = await initDataDir(cwd, undefined, { database: "sqlite" });
    await seedAccount(dataDir, "chatty");
    // Enough audit entries for an export of several megabytes, far past a pipe's buffer.
    const sqlite = new Database(join(dataDir, "cuebot.db"));
    const insert = sqlite.prepare(
      "INSERT INTO audit_log (at, account_id, login, actor, action, detail) VALUES (?, 1, 'chatty', 'cli', 'key.show', ?)",
    );
    sqlite.transaction(() => {
      for (let i = 0; i < 20_000; i++) insert.run(i, JSON.stringify({ note: "x".repeat(60) }));
    })();
    sqlite.close();

    const proc = Bun.spawn(
      [process.execPath, CLI_ENTRY, "users", "export", "chatty", "--data-dir", dataDir],
      {
        cwd,
        env: cleanEnv(),
        stdout: "pipe",
        stderr: "pipe",
      },
    );
    // Read nothing until the program has written everything it can into the pipe.
    await Bun.sleep(1_500);
    const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(0);
    expect(stdout.length).toBeGreaterThan(1_000_000);
    const document = JSON.parse(stdout) as { auditLog: unknown[] };
    expect(document.auditLog.length).toBe(20_001);
  });
});
