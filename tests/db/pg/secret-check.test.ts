import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { SQL } from "bun";
import { checkSecretKey, SecretKeyMismatchError, secretKeyFingerprint } from "../../../db/pg/secret-check.ts";
import {
  createTestDatabase,
  dropTestDatabase,
  explainSkip,
  postgresAvailable,
  type TestDatabase,
} from "../../helpers/engines.ts";

explainSkip("postgres");

describe.skipIf(!postgresAvailable)("instances on one PostgreSQL database share secret.key", () => {
  const sqls: SQL[] = [];
  const databases: TestDatabase[] = [];
  const connect = async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const sql = new SQL({ url: database.url, max: 2 });
    sqls.push(sql);
    return sql;
  };
  let sql: SQL;
  beforeAll(async () => {
    sql = await connect();
  });
  afterAll(async () => {
    await Promise.all(sqls.map((s) => s.close()));
    for (const database of databases) await dropTestDatabase(database);
  });

  test("the first key is recorded, the same key matches, another key is refused", async () => {
    const key = randomBytes(32);
    expect(await checkSecretKey(sql, key)).toBe("recorded");
    expect(await checkSecretKey(sql, Buffer.from(key))).toBe("matches");
    const error = await checkSecretKey(sql, randomBytes(32)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretKeyMismatchError);
    expect((error as Error).message).toContain("copy secret.key");
  });

  test("two different keys starting together: exactly one is recorded, the other refused", async () => {
    const fresh = await connect();
    const results = await Promise.allSettled([
      checkSecretKey(fresh, randomBytes(32)),
      checkSecretKey(fresh, randomBytes(32)),
    ]);
    expect(
      results.filter((r) => r.status === "fulfilled").map((r) => (r as PromiseFulfilledResult<string>).value),
    ).toEqual(["recorded"]);
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(1);
  });

  test("the stored fingerprint is not the key", () => {
    const key = randomBytes(32);
    const fingerprint = secretKeyFingerprint(key);
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprint).not.toBe(key.toString("hex"));
  });
});
