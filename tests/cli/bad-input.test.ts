// Bad input, one test each: exit code and the one `cuebot: …` line a user sees. Usage errors that
// belong to one command live beside it: unknown role and unknown login (role.test.ts), `users delete`
// without --yes (users.test.ts), backup onto an existing file (backup.test.ts), init twice (init.test.ts).

import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI_ENTRY, cleanEnv, initDataDir, SCHEMA, Scratch, SOURCE_CLI } from "../helpers/cli.ts";

const scratch = new Scratch();
afterEach(() => scratch.cleanup());

/** Runs as user `nobody`, so file permissions apply as they would to a normal service account. */
const AS_NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"];
/**
 * Root ignores permission bits, so "not writable" is tested as `nobody`. That needs setpriv, root, and a
 * checkout `nobody` can read (a clone inside a private temp folder is not).
 */
const nobodyCanRunCli = (() => {
  if (process.getuid?.() !== 0 || !Bun.which("setpriv")) return false;
  const probe = Bun.spawnSync([...AS_NOBODY, ...SOURCE_CLI, "--version"], {
    env: cleanEnv({ HOME: "/tmp" }),
    stdout: "ignore",
    stderr: "ignore",
  });
  return probe.exitCode === 0;
})();
if (!nobodyCanRunCli) {
  console.warn(
    `bad-input: skipping the tests run as user "nobody" (needs root, setpriv and a checkout "nobody" can read; ${CLI_ENTRY})`,
  );
}

const NEWER_SCHEMA =
  "cuebot: the database was written by a newer cuebot (its schema is newer than this binary); upgrade cuebot or restore a backup\n";

describe("bad settings stop start-up with exit 1 and one line naming the setting", () => {
  test("--port 70000", async () => {
    const cwd = scratch.dir();
    const result = await scratch.run(["serve", "--port", "70000", "--data-dir", join(cwd, "d")], { cwd });
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr: "cuebot: invalid setting --port: 70000 is out of range (0–65535)\n",
    });
  });

  test("--port abc", async () => {
    const cwd = scratch.dir();
    const result = await scratch.run(["serve", "--port", "abc", "--data-dir", join(cwd, "d")], { cwd });
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr: 'cuebot: invalid setting --port: "abc" is not a whole number\n',
    });
  });

  test("CUEBOT_PORT=-1 names the variable", async () => {
    const cwd = scratch.dir();
    const result = await scratch.run(["serve", "--data-dir", join(cwd, "d")], {
      cwd,
      env: { CUEBOT_PORT: "-1" },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('cuebot: invalid setting CUEBOT_PORT: "-1" is not a whole number\n');
  });

  test("a bad CUEBOT_LOG value (serve and the admin commands)", async () => {
    const cwd = scratch.dir();
    const dataDir = await initDataDir(cwd);
    const expected = {
      code: 1,
      stdout: "",
      stderr: 'cuebot: invalid setting CUEBOT_LOG: "loud" is not one of debug, info, warn, error\n',
    };
    for (const args of [["serve"], ["users", "list"], ["migrate"]]) {
      const result = await scratch.run([...args, "--data-dir", dataDir], {
        cwd,
        env: { CUEBOT_LOG: "loud" },
      });
      expect({ args, ...result }).toEqual({ args, ...expected });
    }
  });

  test("a bad --log or --log-format flag", async () => {
    const cwd = scratch.dir();
    const log = await scratch.run(["serve", "--log", "chatty", "--data-dir", join(cwd, "d")], { cwd });
    expect(log.code).toBe(1);
    expect(log.stderr).toBe(
      'cuebot: invalid setting --log: "chatty" is not one of debug, info, warn, error\n',
    );
    const format = await scratch.run(["serve", "--log-format", "xml", "--data-dir", join(cwd, "d")], { cwd });
    expect(format.stderr).toBe('cuebot: invalid setting --log-format: "xml" is not one of json, pretty\n');
  });

  test("a bad --public-url (not a URL, or not http/https); init writes nothing then", async () => {
    const cwd = scratch.dir();
    const dataDir = join(cwd, "d");
    const notUrl = await scratch.run(["init", "--public-url", "bot.example.com", "--data-dir", dataDir], {
      cwd,
    });
    expect(notUrl).toEqual({
      code: 1,
      stdout: "",
      stderr: 'cuebot: invalid setting --public-url: "bot.example.com" is not a URL\n',
    });
    expect(await Bun.file(join(dataDir, "config.json")).exists()).toBe(false);

    const ftp = await scratch.run(["serve", "--public-url", "ftp://bot.example.com", "--data-dir", dataDir], {
      cwd,
    });
    expect(ftp.code).toBe(1);
    expect(ftp.stderr).toBe(
      'cuebot: invalid setting --public-url: "ftp://bot.example.com" must start with http:// or https://\n',
    );
  });

  test("an empty --data-dir names the flag", async () => {
    const cwd = scratch.dir();
    const result = await scratch.run(["init", "--data-dir", ""], { cwd });
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr: "cuebot: invalid setting --data-dir: must not be empty\n",
    });
    const fromEnv = await scratch.run(["init"], { cwd, env: { CUEBOT_DATA_DIR: " " } });
    expect(fromEnv.stderr).toBe("cuebot: invalid setting CUEBOT_DATA_DIR: must not be empty\n");
  });
});

describe("a broken config.json", () => {
  test("not JSON: exit 1 naming the file", async () => {
    const cwd = scratch.dir();
    const dataDir = await initDataDir(cwd);
    const path = join(dataDir, "config.json");
    writeFileSync(path, '{"port": 80');
    for (const args of [["serve"], ["init"], ["key", "show", "alice"]]) {
      const result = await scratch.run([...args, "--data-dir", dataDir], { cwd });
      expect({ args, ...result }).toEqual({
        args,
        code: 1,
        stdout: "",
        stderr: `cuebot: invalid setting ${path}: is not valid JSON\n`,
      });
    }
    expect(readFileSync(path, "utf8")).toBe('{"port": 80');
  });

  test("not an object, an unknown key, or a bad value: exit 1 naming it", async () => {
    const cwd = scratch.dir();
    const dataDir = await initDataDir(cwd);
    const path = join(dataDir, "config.json");
    const cases: [string, string][] = [
      ["[1, 2]", `invalid setting ${path}: must hold a JSON object`],
      ['{"prot": 8080}', `invalid setting prot (in ${path}): unknown setting`],
      ['{"port": {"n": 1}}', `invalid setting port (in ${path}): must be a string, number or boolean`],
      ['{"port": 99999}', "invalid setting port (config.json): 99999 is out of range (0–65535)"],
      [
        '{"log": "verbose"}',
        'invalid setting log (config.json): "verbose" is not one of debug, info, warn, error',
      ],
    ];
    for (const [text, message] of cases) {
      writeFileSync(path, text);
      const result = await scratch.run(["serve", "--data-dir", dataDir], { cwd });
      expect({ text, code: result.code, stderr: result.stderr }).toEqual({
        text,
        code: 1,
        stderr: `cuebot: ${message}\n`,
      });
    }
  });

  test("unreadable (a folder in its place): exit 1 naming the file", async () => {
    const cwd = scratch.dir();
    const dataDir = join(cwd, "d");
    mkdirSync(join(dataDir, "config.json"), { recursive: true });
    const result = await scratch.run(["serve", "--data-dir", dataDir], { cwd });
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr: `cuebot: invalid setting ${join(dataDir, "config.json")}: cannot read it (EISDIR)\n`,
    });
  });

  test.skipIf(!nobodyCanRunCli)(
    "unreadable (no permission, run as nobody): exit 1 naming the file",
    async () => {
      const cwd = scratch.dir();
      chmodSync(cwd, 0o755);
      const dataDir = join(cwd, "d");
      mkdirSync(dataDir, { mode: 0o755 });
      writeFileSync(join(dataDir, "config.json"), "{}", { mode: 0o600 });
      const result = await scratch.run(["serve", "--data-dir", dataDir], {
        cwd,
        command: [...AS_NOBODY, ...SOURCE_CLI],
        env: { HOME: "/tmp" },
      });
      expect(result).toEqual({
        code: 1,
        stdout: "",
        stderr: `cuebot: invalid setting ${join(dataDir, "config.json")}: cannot read it (EACCES)\n`,
      });
    },
  );
});

describe("a data folder that cannot be used", () => {
  test("its path runs through a regular file: exit 1, cannot create data folder", async () => {
    const cwd = scratch.dir();
    writeFileSync(join(cwd, "file"), "");
    const dataDir = join(cwd, "file", "data");
    for (const args of [["init"], ["serve"]]) {
      const result = await scratch.run([...args, "--data-dir", dataDir], { cwd });
      expect({ args, ...result }).toEqual({
        args,
        code: 1,
        stdout: "",
        stderr: `cuebot: cannot create data folder ${dataDir} (ENOTDIR)\n`,
      });
    }
  });

  test("it is a file: exit 1, not a folder", async () => {
    const cwd = scratch.dir();
    const dataDir = join(cwd, "data");
    writeFileSync(dataDir, "");
    const result = await scratch.run(["init", "--data-dir", dataDir], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`cuebot: data folder ${dataDir} is not a folder\n`);
  });

  test.skipIf(!nobodyCanRunCli)("not writable by the user running cuebot: exit 1, not writable", async () => {
    const cwd = scratch.dir();
    chmodSync(cwd, 0o755);
    const dataDir = join(cwd, "data");
    mkdirSync(dataDir, { mode: 0o755 });
    const asNobody = { cwd, command: [...AS_NOBODY, ...SOURCE_CLI], env: { HOME: "/tmp" } };
    for (const args of [["init"], ["serve", "--port", "0"]]) {
      const result = await scratch.run([...args, "--data-dir", dataDir], asNobody);
      expect({ args, ...result }).toEqual({
        args,
        code: 1,
        stdout: "",
        stderr: `cuebot: data folder ${dataDir} is not writable (EACCES)\n`,
      });
    }
    const nested = join(dataDir, "sub");
    const create = await scratch.run(["init", "--data-dir", nested], asNobody);
    expect(create.code).toBe(1);
    expect(create.stderr).toBe(`cuebot: cannot create data folder ${nested} (EACCES)\n`);
  });

  test("cuebot.db is not an SQLite file: exit 1 with a clear message, the file untouched", async () => {
    const cwd = scratch.dir();
    const dataDir = await initDataDir(cwd, undefined, { database: "sqlite" });
    const dbPath = join(dataDir, "cuebot.db");
    writeFileSync(dbPath, "these are my notes, not a database\n");
    const expected = {
      code: 1,
      stdout: "",
      stderr: `cuebot: ${dbPath} is not an SQLite database; move it away or point --data-dir at another folder\n`,
    };
    for (const args of [["serve", "--port", "0"], ["migrate"], ["users", "list"], ["init"]]) {
      const result = await scratch.run([...args, "--data-dir", dataDir], { cwd });
      expect({ args, ...result }).toEqual({ args, ...expected });
    }
    expect(readFileSync(dbPath, "utf8")).toBe("these are my notes, not a database\n");
  });

  test("a damaged secret.key: exit 1 naming it and saying what it protects", async () => {
    const cwd = scratch.dir();
    const dataDir = await initDataDir(cwd);
    writeFileSync(join(dataDir, "secret.key"), "not hex\n");
    for (const args of [
      ["serve", "--port", "0"],
      ["users", "list"],
    ]) {
      const result = await scratch.run([...args, "--data-dir", dataDir], { cwd });
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `cuebot: ${join(dataDir, "secret.key")} is not a cuebot secret key (expected 64 hex characters); restore it from your backup — API keys and tokens cannot be read without it\n`,
      );
    }
    expect(readFileSync(join(dataDir, "secret.key"), "utf8")).toBe("not hex\n");
  });

  test("a database written by a newer cuebot: serve and migrate refuse, exit 1, nothing changed", async () => {
    const cwd = scratch.dir();
    const dataDir = await initDataDir(cwd, undefined, { database: "sqlite" });
    const dbPath = join(dataDir, "cuebot.db");
    const db = new Database(dbPath);
    const newest = (db.query("SELECT max(created_at) AS m FROM __drizzle_migrations").get() as { m: number })
      .m;
    db.run("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('future', ?)", [newest + 86_400_000]);
    db.close();

    for (const args of [["serve", "--port", "0"], ["migrate"], ["users", "list"]]) {
      const result = await scratch.run([...args, "--data-dir", dataDir], { cwd });
      expect({ args, ...result }).toEqual({ args, code: 1, stdout: "", stderr: NEWER_SCHEMA });
    }
    const after = new Database(dbPath, { readonly: true });
    const rows = after.query("SELECT hash FROM __drizzle_migrations ORDER BY created_at").all();
    after.close();
    expect(rows).toHaveLength(SCHEMA.version + 1);
  });
});
