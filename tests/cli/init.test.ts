import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { expectPostgresRefused, SCHEMA, Scratch, seedAccount } from "../helpers/cli.ts";

const scratch = new Scratch();
afterEach(() => scratch.cleanup());

const mode = (path: string) => statSync(path).mode & 0o777;
const readJson = (path: string): unknown => JSON.parse(readFileSync(path, "utf8"));

describe("cuebot init", () => {
  test("creates the data folder, a 0600 secret key, config.json and the database; prints the redirect URL", async () => {
    const cwd = scratch.dir();
    const dataDir = join(cwd, "data");
    const result = await scratch.run(["init", "--data-dir", dataDir], { cwd });

    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("http://localhost:8080/auth/callback");
    expect(result.stdout).toContain(`schema version ${SCHEMA.version}`);
    expect(mode(join(dataDir, "secret.key"))).toBe(0o600);
    expect(readFileSync(join(dataDir, "secret.key"), "utf8")).toMatch(/^[0-9a-f]{64}\n$/);
    expect(readJson(join(dataDir, "config.json"))).toEqual({});
    expect(mode(join(dataDir, "config.json"))).toBe(0o600);
    expect(readFileSync(join(dataDir, "cuebot.db")).subarray(0, 15).toString()).toBe("SQLite format 3");
  });

  test("the default data folder is ./cuebot-data in the working folder", async () => {
    const cwd = scratch.dir();
    const result = await scratch.run(["init"], { cwd });
    expect(result.code).toBe(0);
    expect(existsSync(join(cwd, "cuebot-data", "cuebot.db"))).toBe(true);
  });

  test("CUEBOT_DATA_DIR chooses the folder when --data-dir is absent", async () => {
    const cwd = scratch.dir();
    const result = await scratch.run(["init"], { cwd, env: { CUEBOT_DATA_DIR: join(cwd, "from-env") } });
    expect(result.code).toBe(0);
    expect(existsSync(join(cwd, "from-env", "secret.key"))).toBe(true);
    expect(existsSync(join(cwd, "cuebot-data"))).toBe(false);
  });

  test("stores the settings given as flags and uses the public URL for the redirect", async () => {
    const cwd = scratch.dir();
    const dataDir = join(cwd, "data");
    const result = await scratch.run(
      [
        "init",
        "--data-dir",
        dataDir,
        "--twitch-client-id",
        "client-1",
        "--twitch-client-secret",
        "shh-1",
        "--public-url",
        "https://bot.example.com/",
      ],
      { cwd },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("https://bot.example.com/auth/callback");
    expect(result.stdout).toContain("Next: npm start\n");
    expect(result.stdout).not.toContain("shh-1");
    expect(readJson(join(dataDir, "config.json"))).toEqual({
      twitchClientId: "client-1",
      twitchClientSecret: "shh-1",
      publicUrl: "https://bot.example.com/",
    });
  });

  test("running it again is safe: exit 0, same secret, data and config kept, and it says so", async () => {
    const cwd = scratch.dir();
    const dataDir = join(cwd, "data");
    const first = await scratch.run(["init", "--data-dir", dataDir, "--twitch-client-id", "first"], { cwd });
    expect(first.code).toBe(0);
    const secret = readFileSync(join(dataDir, "secret.key"), "utf8");
    const dbBefore = statSync(join(dataDir, "cuebot.db")).size;

    const again = await scratch.run(["init", "--data-dir", dataDir, "--twitch-client-id", "second"], { cwd });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("already there; data kept");
    expect(again.stdout).toContain("kept the existing one");
    expect(again.stdout).toContain("kept existing twitchClientId (use --force to replace)");
    expect(readFileSync(join(dataDir, "secret.key"), "utf8")).toBe(secret);
    expect(mode(join(dataDir, "secret.key"))).toBe(0o600);
    expect(readJson(join(dataDir, "config.json"))).toEqual({ twitchClientId: "first" });
    expect(statSync(join(dataDir, "cuebot.db")).size).toBe(dbBefore);
  });

  test("--force replaces the config values given as flags, keeps the others and never the secret", async () => {
    const cwd = scratch.dir();
    const dataDir = join(cwd, "data");
    await scratch.run(
      ["init", "--data-dir", dataDir, "--twitch-client-id", "old-id", "--public-url", "https://a.example"],
      { cwd },
    );
    const secret = readFileSync(join(dataDir, "secret.key"), "utf8");

    const forced = await scratch.run(
      ["init", "--force", "--data-dir", dataDir, "--twitch-client-id", "new-id", "--json"],
      { cwd },
    );
    expect(forced.code).toBe(0);
    expect(JSON.parse(forced.stdout)).toMatchObject({
      dataDir,
      created: false,
      secretCreated: false,
      written: ["twitchClientId"],
      kept: [],
      schemaVersion: SCHEMA.version,
      redirectUrl: "https://a.example/auth/callback",
    });
    expect(readJson(join(dataDir, "config.json"))).toEqual({
      twitchClientId: "new-id",
      publicUrl: "https://a.example",
    });
    expect(readFileSync(join(dataDir, "secret.key"), "utf8")).toBe(secret);
  });

  test("with a PostgreSQL URL it reaches that database: one that does not answer is exit 1, and no SQLite file appears", async () => {
    await expectPostgresRefused(scratch, ["init"]);
  });

  test("--json reports what was created", async () => {
    const cwd = scratch.dir();
    const dataDir = join(cwd, "data");
    const result = await scratch.run(["--json", "init", "--data-dir", dataDir, "--port", "9000"], { cwd });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      dataDir,
      created: true,
      secretCreated: true,
      written: ["port"],
      kept: [],
      schemaVersion: SCHEMA.version,
      redirectUrl: "http://localhost:9000/auth/callback",
    });
    // Stored the way a person would write it: a number, not "9000".
    expect(JSON.parse(readFileSync(join(dataDir, "config.json"), "utf8"))).toEqual({ port: 9000 });
  });
});

describe("cuebot init --owner", () => {
  test("stores the login without @, lower case; kept on a re-run without --force, replaced with it", async () => {
    const cwd = scratch.dir();
    const dataDir = join(cwd, "data");
    const first = await scratch.run(["init", "--data-dir", dataDir, "--owner", "@StreamerOne"], { cwd });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("saved owner");
    expect(readJson(join(dataDir, "config.json"))).toEqual({ owner: "streamerone" });

    const same = await scratch.run(["init", "--data-dir", dataDir, "--owner", "streamerONE"], { cwd });
    expect(same.stdout).not.toContain("kept existing owner");
    const other = await scratch.run(["init", "--data-dir", dataDir, "--owner", "someone_else"], { cwd });
    expect(other.code).toBe(0);
    expect(other.stdout).toContain("kept existing owner (use --force to replace)");
    expect(readJson(join(dataDir, "config.json"))).toEqual({ owner: "streamerone" });

    const forced = await scratch.run(["init", "--force", "--data-dir", dataDir, "--owner", "someone_else"], {
      cwd,
    });
    expect(forced.code).toBe(0);
    expect(readJson(join(dataDir, "config.json"))).toEqual({ owner: "someone_else" });
  });

  test("an owner whose account exists already keeps its role, and init says how to make it Partner", async () => {
    const cwd = scratch.dir();
    const dataDir = join(cwd, "data");
    expect((await scratch.run(["init", "--data-dir", dataDir], { cwd })).code).toBe(0);
    await seedAccount(dataDir, "streamerone");
    const result = await scratch.run(["init", "--data-dir", dataDir, "--owner", "StreamerOne"], { cwd });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      "streamerone already has an account (role Default); to make it Partner: npm run cuebot -- role set streamerone partner",
    );
  });

  test("a value that is not a Twitch login: exit 1 naming --owner, nothing written", async () => {
    const cwd = scratch.dir();
    const dataDir = join(cwd, "data");
    const bad = await scratch.run(["init", "--data-dir", dataDir, "--owner", "no spaces allowed"], { cwd });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toStartWith("cuebot: invalid setting --owner");
    expect(existsSync(join(dataDir, "config.json"))).toBe(false);
  });

  test("Next: names the commands as they work in a source checkout, the setup link and the demo", async () => {
    const cwd = scratch.dir();
    const result = await scratch.run(["init", "--data-dir", join(cwd, "data")], { cwd });
    expect(result.stdout).toContain(
      "Next: npm start, then open the setup link it prints in a browser to connect Twitch (or run npm run cuebot -- init --twitch-client-id <id> --twitch-client-secret <secret> first). To try everything without a Twitch account: npm start -- --demo",
    );
  });
});
