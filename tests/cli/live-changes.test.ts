import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { initDataDir, Scratch, type ServeProcess, seedAccount } from "../helpers/cli.ts";

/**
 * CONTRACT §3: `key rotate` makes the old key stop working at once, and `role set` applies from the
 * next request, while the server runs. The server sees the CLI's commit on the very next request, so
 * nothing here waits: each request is sent the moment the CLI has returned.
 */
const scratch = new Scratch();
let cwd: string;
let dataDir: string;
let server: ServeProcess;
let apiKey: string;
beforeEach(async () => {
  cwd = scratch.dir();
  dataDir = await initDataDir(cwd);
  apiKey = (await seedAccount(dataDir, "alice")).apiKey;
  server = await scratch.serve(["serve", "--data-dir", dataDir, "--port", "0"], { cwd });
});
afterEach(() => scratch.cleanup());

const cuebot = (...args: string[]) => scratch.run([...args, "--data-dir", dataDir], { cwd });
const coinflip = (key: string) => fetch(`${server.url}/api/bot/coinflip?apiKey=${key}`);

describe("CLI changes reach a running server on the next request", () => {
  test("key rotate: the very next request with the old key is 401, the new key works", async () => {
    // The old key is known to the server (and cached) before the rotation.
    expect((await coinflip(apiKey)).status).toBe(200);
    const rotated = await cuebot("key", "rotate", "alice");
    expect(rotated.code).toBe(0);
    const old = await coinflip(apiKey);
    expect(old.status).toBe(401);
    expect(((await old.json()) as { error: { code: string } }).error.code).toBe("invalid_api_key");
    expect((await coinflip(rotated.stdout.trim())).status).toBe(200);
  });

  test("role set: the very next request meets the new role's quota, in its headers", async () => {
    const before = await coinflip(apiKey);
    expect(before.status).toBe(200);
    expect(before.headers.get("x-ratelimit-limit")).toBe("30");
    expect(before.headers.get("x-ratelimit-remaining")).toBe("29");
    expect((await cuebot("role", "set", "alice", "partner")).code).toBe(0);
    const after = await coinflip(apiKey);
    expect(after.status).toBe(200);
    expect(after.headers.get("x-ratelimit-limit")).toBe("120");
    expect(after.headers.get("x-ratelimit-remaining")).toBe("118");
  });
});
