import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { initDataDir, Scratch, seedAccount } from "../helpers/cli.ts";

const scratch = new Scratch();
let cwd: string;
let dataDir: string;
let seeded: Awaited<ReturnType<typeof seedAccount>>;
beforeEach(async () => {
  cwd = scratch.dir();
  dataDir = await initDataDir(cwd);
  seeded = await seedAccount(dataDir, "alice");
});
afterEach(() => scratch.cleanup());

const cuebot = (...args: string[]) => scratch.run([...args, "--data-dir", dataDir], { cwd });
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("cuebot key", () => {
  test("key show prints the current key, bare, on one line", async () => {
    expect(await cuebot("key", "show", "alice")).toEqual({
      code: 0,
      stdout: `${seeded.apiKey}\n`,
      stderr: "",
    });
    const json = await cuebot("key", "show", "ALICE", "--json");
    expect(JSON.parse(json.stdout)).toEqual({ login: "alice", apiKey: seeded.apiKey });
  });

  test("key rotate prints a new UUID v4 key that key show then returns", async () => {
    const rotated = await cuebot("key", "rotate", "alice");
    expect(rotated.code).toBe(0);
    const newKey = rotated.stdout.trimEnd();
    expect(rotated.stdout).toBe(`${newKey}\n`);
    expect(newKey).toMatch(UUID_V4);
    expect(newKey).not.toBe(seeded.apiKey);
    expect((await cuebot("key", "show", "alice")).stdout).toBe(`${newKey}\n`);

    const json = JSON.parse((await cuebot("key", "rotate", "alice", "--json")).stdout) as {
      login: string;
      apiKey: string;
    };
    expect(json.login).toBe("alice");
    expect(json.apiKey).toMatch(UUID_V4);
    expect(json.apiKey).not.toBe(newKey);
  });

  test("an unknown login: exit 1 with the contract's message", async () => {
    for (const command of ["show", "rotate"]) {
      expect(await cuebot("key", command, "ghost")).toEqual({
        code: 1,
        stdout: "",
        stderr: 'cuebot: no account with login "ghost" (the streamer must log in once first)\n',
      });
    }
  });
});

describe("cuebot overlay", () => {
  test("overlay rotate prints a new opaque token, bare; --json gives {login, overlayToken}", async () => {
    const rotated = await cuebot("overlay", "rotate", "alice");
    expect(rotated.code).toBe(0);
    const token = rotated.stdout.trimEnd();
    expect(rotated.stdout).toBe(`${token}\n`);
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(token).not.toBe(seeded.overlayToken);

    const json = JSON.parse((await cuebot("overlay", "rotate", "alice", "--json")).stdout) as Record<
      string,
      string
    >;
    expect(Object.keys(json)).toEqual(["login", "overlayToken"]);
    expect(json.overlayToken).not.toBe(token);
  });

  test("an unknown login: exit 1 with the contract's message", async () => {
    const result = await cuebot("overlay", "rotate", "ghost");
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'cuebot: no account with login "ghost" (the streamer must log in once first)\n',
    );
  });
});
