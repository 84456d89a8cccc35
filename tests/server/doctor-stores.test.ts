import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { SQL } from "bun";
import { checkSecretKey } from "../../db/pg/secret-check.ts";
import { readSecretKey } from "../../server/core/secrets.ts";
import { initDataDir, Scratch } from "../helpers/cli.ts";
import {
  createTestDatabase,
  dropTestDatabase,
  explainSkip,
  freePort,
  postgresAvailable,
  redisAvailable,
  sharedRedisServer,
  type TestDatabase,
} from "../helpers/engines.ts";

explainSkip("postgres");
explainSkip("redis");

interface Check {
  check: string;
  status: string;
  detail: string;
}

const scratch = new Scratch();
afterAll(() => scratch.cleanup());

async function doctor(env: Record<string, string>, dataDir?: string) {
  const cwd = scratch.dir();
  const dir = dataDir ?? (await initDataDir(cwd));
  const result = await scratch.run(["doctor", "--json", "--data-dir", dir], {
    cwd,
    env: { CUEBOT_PORT: "1", ...env },
  });
  const report = JSON.parse(result.stdout) as { ok: boolean; checks: Check[] };
  return { code: result.code, check: (name: string) => report.checks.find((c) => c.check === name) };
}

describe.skipIf(!postgresAvailable)("cuebot doctor with CUEBOT_DATABASE_URL", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ migrated: true });
  });
  afterAll(async () => {
    await dropTestDatabase(database);
  });

  test("a reachable, migrated database: answers, its schema, and the password never printed", async () => {
    const url = new URL(database.url);
    url.password = "pw-that-must-not-show";
    const { check } = await doctor({ CUEBOT_DATABASE_URL: database.url });
    const pg = check("PostgreSQL");
    expect(pg?.status).toBe("ok");
    expect(pg?.detail).toMatch(/answers \(PostgreSQL \d+/);
    expect(pg?.detail).toContain("schema ");
    expect(pg?.detail).toContain("0 accounts");
    // The data is there, not in the folder's SQLite file: no check of that file.
    expect(check("database")).toBeUndefined();
    const withPassword = await doctor({ CUEBOT_DATABASE_URL: url.href });
    expect(JSON.stringify(withPassword.check("PostgreSQL"))).not.toContain("pw-that-must-not-show");
  });

  test("a database created with another secret.key: a failure that says which file to copy", async () => {
    const other = await createTestDatabase({ migrated: true });
    try {
      const sql = new SQL({ url: other.url, max: 1 });
      await checkSecretKey(sql, randomBytes(32));
      await sql.close();
      const { code, check } = await doctor({ CUEBOT_DATABASE_URL: other.url });
      expect(code).toBe(1);
      expect(check("PostgreSQL")?.status).toBe("fail");
      expect(check("PostgreSQL")?.detail).toContain(
        "secret.key is not the one the database was created with",
      );

      // The data folder whose key was recorded matches.
      const cwd = scratch.dir();
      const dataDir = await initDataDir(cwd);
      const recorded = await createTestDatabase({ migrated: true });
      const sql2 = new SQL({ url: recorded.url, max: 1 });
      await checkSecretKey(sql2, readSecretKey(join(dataDir, "secret.key")));
      await sql2.close();
      const same = await doctor({ CUEBOT_DATABASE_URL: recorded.url }, dataDir);
      expect(same.check("PostgreSQL")?.detail).toContain("secret.key matches");
      await dropTestDatabase(recorded);
    } finally {
      await dropTestDatabase(other);
    }
  });

  test("nothing listening: a failure naming the (redacted) address", async () => {
    const port = await freePort();
    const { code, check } = await doctor({
      CUEBOT_DATABASE_URL: `postgres://cuebot:secret-pw@127.0.0.1:${port}/cuebot`,
    });
    expect(code).toBe(1);
    expect(check("PostgreSQL")?.status).toBe("fail");
    expect(check("PostgreSQL")?.detail).toStartWith(`postgres://cuebot:***@127.0.0.1:${port}/cuebot`);
  });
});

describe.skipIf(!redisAvailable)("cuebot doctor with CUEBOT_REDIS_URL", () => {
  test("a reachable Redis answers with its version", async () => {
    const redis = await sharedRedisServer();
    const { check } = await doctor({ CUEBOT_REDIS_URL: redis.url });
    expect(check("Redis")?.status).toBe("ok");
    expect(check("Redis")?.detail).toMatch(/answers \(Redis \d+\.\d+/);
    expect(check("Redis")?.detail).toContain(
      "`serve` shares limits, cooldowns, overlays and chat through it",
    );
  });

  test("nothing listening: a failure, and doctor still ends", async () => {
    const port = await freePort();
    const { code, check } = await doctor({ CUEBOT_REDIS_URL: `redis://127.0.0.1:${port}` });
    expect(code).toBe(1);
    expect(check("Redis")?.status).toBe("fail");
    expect(check("Redis")?.detail).toStartWith(`redis://127.0.0.1:${port}`);
  });
});
