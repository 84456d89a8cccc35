import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SQL } from "bun";
import { sha256Hex } from "../../db/lookup-hash.ts";
import { initDataDir, Scratch, seedAccount } from "../helpers/cli.ts";
import {
  createTestDatabase,
  dropTestDatabase,
  explainSkip,
  freePort,
  postgresAvailable,
  type TestDatabase,
} from "../helpers/engines.ts";

explainSkip("postgres");

/** `cuebot db copy`: an embedded install moved to PostgreSQL, checked row by row and key by key. */
describe.skipIf(!postgresAvailable)("cuebot db copy", () => {
  const scratch = new Scratch();
  let cwd: string;
  let dataDir: string;
  let keys: string[];
  let target: TestDatabase;

  beforeAll(async () => {
    cwd = scratch.dir();
    dataDir = await initDataDir(cwd, undefined, { database: "sqlite" });
    keys = [(await seedAccount(dataDir, "alice")).apiKey, (await seedAccount(dataDir, "bob")).apiKey];
    target = await createTestDatabase({ migrated: false });
  });
  afterAll(async () => {
    await dropTestDatabase(target);
    await scratch.cleanup();
  });

  const copy = (from: string, to: string, json = true) =>
    scratch.run(["db", "copy", "--from", from, "--to", to, ...(json ? ["--json"] : [])], { cwd });

  test("copies every row into a new database, migrating it, and proves the keys still work", async () => {
    const result = await copy(join(dataDir, "cuebot.db"), target.url);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as {
      tables: { name: string; rows: number }[];
      keysVerified: { apiKeys: number; overlayTokens: number };
      to: string;
    };
    const rows = Object.fromEntries(report.tables.map((t) => [t.name, t.rows]));
    expect(rows).toMatchObject({ accounts: 2, api_keys: 2, overlay_tokens: 2 });
    expect(report.keysVerified).toEqual({ apiKeys: 2, overlayTokens: 2 });
    expect(report.to).not.toContain(new URL(target.url).password || "\u0000");

    const sql = new SQL({ url: target.url, max: 1 });
    try {
      for (const key of keys) {
        const [row] = await sql`SELECT a.login FROM api_keys k JOIN accounts a ON a.id = k.account_id
          WHERE k.lookup_hash = ${sha256Hex(key)}`;
        expect(row?.login).toBeDefined();
      }
    } finally {
      await sql.close();
    }
  });

  test("a second copy into the same database is refused and changes nothing", async () => {
    const result = await copy(join(dataDir, "cuebot.db"), target.url, false);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(
      "nothing was copied: the PostgreSQL database is not empty (table accounts has rows)",
    );
  });

  test("a data folder with another secret.key is refused before anything is copied", async () => {
    const other = join(cwd, "other");
    mkdirSync(other);
    copyFileSync(join(dataDir, "cuebot.db"), join(other, "cuebot.db"));
    writeFileSync(join(other, "secret.key"), `${"ab".repeat(32)}\n`, { mode: 0o600 });
    const result = await copy(join(other, "cuebot.db"), target.url, false);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("secret.key differs from the one the database was created with");
  });

  test("bad input: not a PostgreSQL URL (exit 2), a missing file, no secret.key beside it, an unreachable server", async () => {
    const bad = await copy(join(dataDir, "cuebot.db"), "mysql://root@localhost/db", false);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--to must start with postgres:// or postgresql://");

    const missing = await copy(join(cwd, "nope.db"), target.url, false);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("nope.db does not exist");

    const lonely = join(cwd, "lonely");
    mkdirSync(lonely);
    copyFileSync(join(dataDir, "cuebot.db"), join(lonely, "cuebot.db"));
    const noKey = await copy(join(lonely, "cuebot.db"), target.url, false);
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toContain("no secret.key beside");
    rmSync(lonely, { recursive: true });

    const port = await freePort();
    const down = await copy(
      join(dataDir, "cuebot.db"),
      `postgres://cuebot:hunter2@127.0.0.1:${port}/x`,
      false,
    );
    expect(down.code).toBe(1);
    expect(down.stderr).toContain(`PostgreSQL at postgres://cuebot:***@127.0.0.1:${port}/x`);
    expect(down.stderr).not.toContain("hunter2");
  });
});
