// `npm start` as CONTRACT §1 and issue 36 have it, run through the real npm in this checkout: it serves,
// prints the setup link while Twitch is not configured, and `npm start --demo` (npm keeps the flag as
// npm_config_demo) starts the demo exactly as `npm start -- --demo` does.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, Scratch, type ServeProcess } from "../helpers/cli.ts";

const scratch = new Scratch();
afterEach(() => scratch.cleanup());

const NPM = Bun.which("npm");

/** `npm start <args>` in the checkout, on a fresh data folder and any free port. */
async function npmStart(args: string[]) {
  const dataDir = join(scratch.dir("cuebot-npm-start-"), "data");
  const server = await scratch.serve(args, {
    cwd: REPO_ROOT,
    command: [NPM!, "start"],
    env: { CUEBOT_DATA_DIR: dataDir, CUEBOT_PORT: "0", CUEBOT_LOG_FORMAT: "json" },
    timeoutMs: 30_000,
  });
  return { server, dataDir };
}

/**
 * SIGTERM to npm alone (a process manager, a test harness): npm's shell dies without passing it on,
 * and the server, left behind, notices and stops as it does for SIGTERM, freeing its port.
 */
async function stopsWithNpm(server: ServeProcess): Promise<void> {
  await server.stop("SIGTERM", 20_000);
  expect(server.stdout()).toContain('"msg":"stopped"');
  expect(await fetch(`${server.url}/healthz`).catch(() => null)).toBeNull();
}

describe.skipIf(!NPM)("npm start", () => {
  test("without --demo: the data folder is made, the setup link printed, no demo", async () => {
    const { server, dataDir } = await npmStart([]);
    expect(server.stdout()).toMatch(/"msg":"http:\/\/localhost:\d+\/setup\?token=[A-Za-z0-9_-]{43}"/);
    expect(server.stdout()).not.toContain("demo mode");
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(existsSync(join(dataDir, "cuebot.db"))).toBe(true);
    expect(existsSync(join(dataDir, "secret.key"))).toBe(true);
    await stopsWithNpm(server);
  }, 40_000);

  for (const args of [["--demo"], ["--", "--demo"]]) {
    test(`npm start ${args.join(" ")}: the demo, which says so, with login working and no setup link`, async () => {
      const { server } = await npmStart(args);
      expect(server.stdout()).toContain("demo mode");
      expect(server.stdout()).not.toContain("/setup?token=");
      const base = server.url.replace("127.0.0.1", "localhost");
      const login = await fetch(`${base}/auth/login`, { redirect: "manual" });
      expect(login.status).toBe(302);
      expect(await (await fetch(`${base}/`)).text()).toContain("demo");
      await stopsWithNpm(server);
    }, 40_000);
  }
});
