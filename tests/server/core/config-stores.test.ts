import { afterEach, describe, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, loadConfig } from "../../../server/core/config.ts";
import { checkDatabaseUrl, checkRedisUrl, redactUrl } from "../../../server/core/store-urls.ts";
import { Scratch } from "../../helpers/cli.ts";
import { tempDir } from "../../helpers/context.ts";

const dirs: string[] = [];
const scratch = new Scratch();
afterEach(async () => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  await scratch.cleanup();
});

function emptyDataDir(): string {
  const dir = tempDir("cuebot-config-stores-");
  dirs.push(dir);
  return dir;
}

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("expected a ConfigError");
}

const PG = "postgres://cuebot:s3cret@db.internal:5432/cuebot";
const REDIS = "redis://:s3cret@cache.internal:6379/0";

describe("--database-url / CUEBOT_DATABASE_URL and --redis-url / CUEBOT_REDIS_URL", () => {
  test("neither given: both stores are embedded (null)", () => {
    const config = loadConfig({ dataDir: emptyDataDir(), env: {} });
    expect(config.databaseUrl).toBeNull();
    expect(config.redisUrl).toBeNull();
  });

  test("flag over environment over config.json", () => {
    const dataDir = emptyDataDir();
    writeFileSync(
      join(dataDir, "config.json"),
      JSON.stringify({ databaseUrl: "postgres://file/db", redisUrl: "redis://file:6379" }),
    );
    const env = { CUEBOT_DATABASE_URL: "postgresql://env/db", CUEBOT_REDIS_URL: "rediss://env:6380" };
    expect(loadConfig({ dataDir, env: {} })).toMatchObject({
      databaseUrl: "postgres://file/db",
      redisUrl: "redis://file:6379",
    });
    expect(loadConfig({ dataDir, env })).toMatchObject({
      databaseUrl: "postgresql://env/db",
      redisUrl: "rediss://env:6380",
    });
    expect(
      loadConfig({
        dataDir,
        env,
        flags: { databaseUrl: PG, redisUrl: "redis+unix:///run/redis/redis.sock" },
      }),
    ).toMatchObject({ databaseUrl: PG, redisUrl: "redis+unix:///run/redis/redis.sock" });
  });

  test.each([
    PG,
    "postgresql://localhost/cuebot",
    "postgres://db.internal/cuebot?sslmode=require",
    "postgres:///cuebot?host=/run/postgresql",
    "postgres://[::1]:5433/cuebot",
  ])("accepts database URL %s", (url) => {
    expect(checkDatabaseUrl(url)).toEqual({ ok: true, url });
  });

  test.each([
    REDIS,
    "redis://localhost",
    "redis://cache.internal:6379",
    "rediss://user:pw@cache.example.com:6380/3",
    "redis+unix:///run/redis/redis.sock",
  ])("accepts Redis URL %s", (url) => {
    expect(checkRedisUrl(url)).toEqual({ ok: true, url });
  });

  test.each([
    [
      "--database-url",
      "mysql://cuebot:s3cret@db/cuebot",
      "must start with postgres:// or postgresql:// (got mysql://)",
    ],
    ["--database-url", "db.internal:5432", "must start with postgres:// or postgresql://"],
    ["--database-url", "cuebot.db", "is not a URL (expected postgres://user:password@host:5432/database)"],
    [
      "--database-url",
      "postgres:///cuebot",
      "names no host (expected postgres://user:password@host:5432/database)",
    ],
    ["--database-url", "postgres://cuebot:s3cret@db:0/x", "port 0 is not a server port"],
    [
      "--redis-url",
      "http://cache:6379",
      "must start with redis://, rediss:// or redis+unix:// (got http://)",
    ],
    ["--redis-url", "localhost:6379", "must start with redis://, rediss:// or redis+unix://"],
    ["--redis-url", "redis://:s3cret@/0", "is not a URL (expected redis://host:6379)"],
    [
      "--redis-url",
      "redis://:s3cret@cache:6379/cuebot",
      "the path must be a database number (redis://host:6379/0)",
    ],
    ["--redis-url", "redis+unix://", "must name the socket path (redis+unix:///run/redis/redis.sock)"],
  ] as const)("%s %s is refused: one line naming the setting, never the password", (flag, value, problem) => {
    const key = flag === "--database-url" ? "databaseUrl" : "redisUrl";
    const message = errorOf(() => loadConfig({ dataDir: emptyDataDir(), env: {}, flags: { [key]: value } }));
    expect(message).toBe(`invalid setting ${flag}: ${problem}`);
    expect(message).not.toContain("s3cret");
  });

  test("the environment variable is named when the value came from it", () => {
    const message = errorOf(() =>
      loadConfig({ dataDir: emptyDataDir(), env: { CUEBOT_REDIS_URL: "memcached://:s3cret@cache" } }),
    );
    expect(message).toBe(
      "invalid setting CUEBOT_REDIS_URL: must start with redis://, rediss:// or redis+unix:// (got memcached://)",
    );
  });

  test("redactUrl hides passwords, for logs", () => {
    expect(redactUrl(PG)).toBe("postgres://cuebot:***@db.internal:5432/cuebot");
    expect(redactUrl(REDIS)).toBe("redis://:***@cache.internal:6379/0");
    expect(redactUrl("postgres://db/x?user=u&password=s3cret")).toBe("postgres://db/x?user=u&password=***");
    expect(redactUrl("postgres://db/x")).toBe("postgres://db/x");
    expect(redactUrl("s3cret")).toBe("(not a URL)");
  });

  test("cuebot serve with a bad CUEBOT_DATABASE_URL exits 1 with that one line", async () => {
    const cwd = scratch.dir();
    const result = await scratch.run(["serve", "--data-dir", join(cwd, "d"), "--port", "0"], {
      cwd,
      env: { CUEBOT_DATABASE_URL: "mysql://cuebot:s3cret@db/cuebot" },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "cuebot: invalid setting CUEBOT_DATABASE_URL: must start with postgres:// or postgresql:// (got mysql://)\n",
    );
    expect(result.stdout).not.toContain("s3cret");
  });
});
