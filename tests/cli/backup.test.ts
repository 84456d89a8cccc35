import { Database } from "bun:sqlite";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { initDataDir, SCHEMA, Scratch, seedAccount } from "../helpers/cli.ts";
import { createTestDatabase, postgresAvailable } from "../helpers/engines.ts";

const scratch = new Scratch();
let cwd: string;
let dataDir: string;
beforeEach(async () => {
  cwd = scratch.dir();
  dataDir = await initDataDir(cwd, undefined, { database: "sqlite" });
  await seedAccount(dataDir, "alice");
});
afterEach(() => scratch.cleanup());

const cuebot = (...args: string[]) => scratch.run([...args, "--data-dir", dataDir], { cwd });

/** Opens a backup read-only and reports what a restore would find in it. */
function inspect(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    const integrity = (db.query("PRAGMA integrity_check").get() as { integrity_check: string })
      .integrity_check;
    const logins = (db.query("SELECT login FROM accounts ORDER BY login").all() as { login: string }[]).map(
      (r) => r.login,
    );
    const migrations = (db.query("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number }).n;
    return { integrity, logins, migrations };
  } finally {
    db.close();
  }
}

describe("cuebot backup", () => {
  test("writes a consistent copy of the database and says where", async () => {
    const file = join(cwd, "backup.db");
    const result = await cuebot("backup", file);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      `backup written to ${file} (${statSync(file).size} bytes, schema version ${SCHEMA.version})\n`,
    );
    expect(inspect(file)).toEqual({ integrity: "ok", logins: ["alice"], migrations: SCHEMA.version });
    // It holds every account's data: readable by its owner only.
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // The copy is one self-contained file (VACUUM INTO), no leftovers beside it.
    expect(readdirSync(cwd).sort()).toEqual(["backup.db", "data"]);
  });

  test("--json: {file, bytes, schemaVersion}", async () => {
    const file = join(cwd, "b.db");
    const result = await cuebot("backup", file, "--json");
    expect(JSON.parse(result.stdout)).toEqual({
      file,
      bytes: statSync(file).size,
      schemaVersion: SCHEMA.version,
    });
  });

  test("an existing file is refused (exit 1, untouched) unless --force", async () => {
    const file = join(cwd, "existing.db");
    writeFileSync(file, "precious");
    const refused = await cuebot("backup", file);
    expect(refused).toEqual({
      code: 1,
      stdout: "",
      stderr: `cuebot: ${file} already exists (use --force to replace it)\n`,
    });
    expect(readFileSync(file, "utf8")).toBe("precious");

    const forced = await cuebot("backup", file, "--force");
    expect(forced.code).toBe(0);
    expect(inspect(file).logins).toEqual(["alice"]);
  });

  test("a relative FILE is relative to the working folder", async () => {
    const result = await cuebot("backup", "relative.db");
    expect(result.code).toBe(0);
    expect(existsSync(join(cwd, "relative.db"))).toBe(true);
  });

  test("a missing target folder: exit 1 naming it", async () => {
    const result = await cuebot("backup", join(cwd, "no", "such", "b.db"));
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`cuebot: folder ${join(cwd, "no", "such")} does not exist\n`);
  });

  test("is safe while serve runs and writes: the copy is complete and the server keeps going", async () => {
    const server = await scratch.serve(["serve", "--port", "0", "--data-dir", dataDir], { cwd });
    // Another writer commits while the backup runs (the CLI changes roles in a loop).
    const writer = (async () => {
      for (let i = 0; i < 3; i++) await cuebot("role", "set", "alice", i % 2 ? "pro" : "vip");
    })();
    const file = join(cwd, "live.db");
    const result = await cuebot("backup", file);
    await writer;
    expect(result.code).toBe(0);
    expect(inspect(file)).toEqual({ integrity: "ok", logins: ["alice"], migrations: SCHEMA.version });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(await server.stop()).toBe(0);
  });

  test("the backup opens as a data folder: the CLI reads the same accounts from it", async () => {
    const file = join(cwd, "copy.db");
    expect((await cuebot("backup", file)).code).toBe(0);
    const restored = join(cwd, "restored");
    await scratch.run(["init", "--data-dir", restored], { cwd });
    writeFileSync(join(restored, "cuebot.db"), readFileSync(file));
    const list = await scratch.run(["users", "list", "--json", "--data-dir", restored], { cwd });
    expect((JSON.parse(list.stdout) as { login: string }[]).map((a) => a.login)).toEqual(["alice"]);
  });
});

describe("cuebot migrate", () => {
  test("prints the schema version; already up to date after init", async () => {
    const result = await cuebot("migrate");
    expect(result).toEqual({
      code: 0,
      stdout: `schema version ${SCHEMA.version} (${SCHEMA.latest}); already up to date\n`,
      stderr: "",
    });
    const json = await cuebot("migrate", "--json");
    expect(JSON.parse(json.stdout)).toEqual({
      schemaVersion: SCHEMA.version,
      latest: SCHEMA.latest,
      applied: [],
    });
  });

  test("applies what is missing on a database with no migrations yet", async () => {
    const fresh = join(cwd, "fresh");
    await scratch.run(["init", "--data-dir", fresh], { cwd });
    // An empty database file: what a copied-in, never-started data folder looks like.
    writeFileSync(join(fresh, "cuebot.db"), "");
    const result = await scratch.run(["migrate", "--json", "--data-dir", fresh], { cwd });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      schemaVersion: SCHEMA.version,
      latest: SCHEMA.latest,
      applied: SCHEMA.tags,
    });
  });
});

describe.skipIf(!postgresAvailable)("cuebot backup on PostgreSQL", () => {
  test("is refused with the pg_dump line to use instead, and writes nothing", async () => {
    const pgCwd = scratch.dir();
    const pgData = await initDataDir(pgCwd);
    const database = await createTestDatabase();
    const result = await scratch.run(["backup", "copy.db", "--data-dir", pgData], {
      cwd: pgCwd,
      env: { CUEBOT_DATABASE_URL: database.url },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("back it up with pg_dump");
    expect(existsSync(join(pgCwd, "copy.db"))).toBe(false);
  });
});
