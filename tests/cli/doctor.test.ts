import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, closeSync, existsSync, openSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { startTwitchSimulator, type TwitchSimulator } from "../../server/sim/twitch/server.ts";
import { initDataDir, Scratch } from "../helpers/cli.ts";

interface Check {
  check: string;
  status: "ok" | "info" | "warn" | "fail";
  detail: string;
}

const scratch = new Scratch();
let twitch: TwitchSimulator;
beforeAll(() => {
  twitch = startTwitchSimulator();
});
afterAll(async () => {
  await twitch.stop();
});
afterEach(() => scratch.cleanup());

function twitchEnv(secret = twitch.client.secret): Record<string, string> {
  return {
    CUEBOT_TWITCH_CLIENT_ID: twitch.client.id,
    CUEBOT_TWITCH_CLIENT_SECRET: secret,
    CUEBOT_TWITCH_AUTH_URL: twitch.authUrl,
    // Nothing listens here, so the "server" check never finds a stray cuebot on 8080.
    CUEBOT_PORT: "1",
  };
}

async function doctor(dataDir: string, cwd: string, env: Record<string, string>) {
  const result = await scratch.run(["doctor", "--json", "--data-dir", dataDir], { cwd, env });
  const report = JSON.parse(result.stdout) as { ok: boolean; checks: Check[] };
  const byName = new Map(report.checks.map((c) => [c.check, c]));
  return { ...result, report, check: (name: string) => byName.get(name) };
}

describe("cuebot doctor", () => {
  test("a healthy install: every check passes or advises, exit 0", async () => {
    const cwd = scratch.dir();
    const dataDir = await initDataDir(cwd, undefined, { database: "sqlite" });
    const { code, report, check } = await doctor(dataDir, cwd, twitchEnv());
    expect(code).toBe(0);
    expect(report.ok).toBe(true);
    expect(check("data folder")?.status).toBe("ok");
    expect(check("database")).toMatchObject({ status: "ok" });
    expect(check("database")?.detail).toContain("integrity ok");
    expect(check("Twitch application")).toEqual({
      check: "Twitch application",
      status: "ok",
      detail: `${twitch.authUrl} accepts the client id and secret`,
    });
    // localhost is fine for Streamer.bot and OBS, not for cloud bots: advice, not a failure.
    expect(check("public URL")?.status).toBe("warn");
    expect(check("game provider")?.status).toBe("warn");
    expect(check("server")?.detail).toContain("nothing answers");
    // Said as it works in a source checkout, where `cuebot` is not on PATH.
    expect(check("server")?.detail).toEndWith("(start it with npm start)");
    expect(check("instances")).toEqual({
      check: "instances",
      status: "info",
      detail: "no cuebot serve runs on this data folder",
    });
  });

  test("names the cuebot serve processes running on the folder, with the address each listens on", async () => {
    const cwd = scratch.dir();
    const dataDir = await initDataDir(cwd, undefined, { database: "sqlite" });
    const server = await scratch.serve(["serve", "--port", "0", "--data-dir", dataDir], { cwd });
    const { check } = await doctor(dataDir, cwd, twitchEnv());
    expect(check("instances")?.detail).toBe(
      `1 cuebot serve runs on this data folder: pid ${server.proc.pid} at ${server.url}`,
    );
    expect(await server.stop()).toBe(0);
    expect((await doctor(dataDir, cwd, twitchEnv())).check("instances")?.detail).toBe(
      "no cuebot serve runs on this data folder",
    );
  });

  test("human output: one line per check, and the failures counted on stderr with exit 1", async () => {
    const cwd = scratch.dir();
    const dataDir = await initDataDir(cwd, undefined, { database: "sqlite" });
    const result = await scratch.run(["doctor", "--data-dir", dataDir], {
      cwd,
      env: twitchEnv("not-the-secret"),
    });
    expect(result.code).toBe(1);
    expect(result.stdout.split("\n")[0]).toMatch(/^STATUS\s+CHECK\s+DETAIL$/);
    expect(result.stdout).toMatch(/\nfail\s+Twitch application\s+.*refused the client id and secret/);
    expect(result.stderr).toBe("cuebot: 1 check failed\n");
  });

  test("Twitch unreachable: a failure that names the address", async () => {
    const cwd = scratch.dir();
    const dataDir = await initDataDir(cwd, undefined, { database: "sqlite" });
    const env = { ...twitchEnv(), CUEBOT_TWITCH_AUTH_URL: "http://127.0.0.1:9" };
    const { code, check } = await doctor(dataDir, cwd, env);
    expect(code).toBe(1);
    expect(check("Twitch application")?.status).toBe("fail");
    expect(check("Twitch application")?.detail).toStartWith("http://127.0.0.1:9 did not answer");
  });

  test("Twitch not configured: a warning naming the setup link, the command as it works here, and the demo", async () => {
    const cwd = scratch.dir();
    const dataDir = await initDataDir(cwd, undefined, { database: "sqlite" });
    const { check } = await doctor(dataDir, cwd, { CUEBOT_PORT: "1" });
    const twitchCheck = check("Twitch application");
    expect(twitchCheck?.status).toBe("warn");
    expect(twitchCheck?.detail).toContain("the setup link printed when cuebot started");
    expect(twitchCheck?.detail).toContain(
      "npm run cuebot -- init --twitch-client-id <id> --twitch-client-secret <secret>",
    );
    expect(twitchCheck?.detail).toContain("npm start -- --demo");
  });

  test("no data folder: a failure, and doctor does not create it", async () => {
    const cwd = scratch.dir();
    const dataDir = join(cwd, "nowhere");
    const { code, check } = await doctor(dataDir, cwd, twitchEnv());
    expect(code).toBe(1);
    expect(check("data folder")?.status).toBe("fail");
    expect(check("data folder")?.detail).toContain("run npm run cuebot -- init");
    expect(existsSync(dataDir)).toBe(false);
  });

  test("a secret.key others can read: a warning that says how to fix it", async () => {
    const cwd = scratch.dir();
    const dataDir = await initDataDir(cwd, undefined, { database: "sqlite" });
    chmodSync(join(dataDir, "secret.key"), 0o644);
    const { code, check } = await doctor(dataDir, cwd, twitchEnv());
    expect(code).toBe(0);
    expect(check("data folder")).toMatchObject({ status: "warn" });
    expect(check("data folder")?.detail).toContain("chmod 600");
  });

  test("a missing secret.key beside a database: a failure (the keys in it cannot be opened)", async () => {
    const cwd = scratch.dir();
    const dataDir = await initDataDir(cwd, undefined, { database: "sqlite" });
    await Bun.file(join(dataDir, "secret.key")).delete();
    const { code, check } = await doctor(dataDir, cwd, twitchEnv());
    expect(code).toBe(1);
    expect(check("data folder")?.detail).toContain("secret.key is missing");
  });

  test("a damaged or foreign database file: a failure, and the file is left as it was", async () => {
    const cwd = scratch.dir();
    const dataDir = await initDataDir(cwd, undefined, { database: "sqlite" });
    const path = join(dataDir, "cuebot.db");
    // Zero a page in the middle of the file: SQLite's own check finds it.
    const fd = openSync(path, "r+");
    writeSync(fd, Buffer.alloc(4096), 0, 4096, 4096 * 3);
    closeSync(fd);
    const before = readFileSync(path);
    const damaged = await doctor(dataDir, cwd, twitchEnv());
    expect(damaged.code).toBe(1);
    expect(damaged.check("database")?.status).toBe("fail");
    expect(readFileSync(path).equals(before)).toBe(true);

    writeFileSync(path, "not a database at all, just some text that is long enough");
    const foreign = await doctor(dataDir, cwd, twitchEnv());
    expect(foreign.check("database")).toMatchObject({ status: "fail" });
    expect(foreign.check("database")?.detail).toContain("is not an SQLite database");
  });

  test("the server is looked for on the port it really listens on, not the configured one", async () => {
    const cwd = scratch.dir();
    const dataDir = await initDataDir(cwd, undefined, { database: "sqlite" });
    // Configured for 8080 (the default), started on a free port.
    const server = await scratch.serve(["serve", "--port", "0", "--data-dir", dataDir], { cwd });
    const port = new URL(server.url).port;
    const { check } = await doctor(dataDir, cwd, { ...twitchEnv(), CUEBOT_PORT: "8080" });
    expect(check("server")).toEqual({
      check: "server",
      status: "info",
      detail: `a server answers on http://127.0.0.1:${port}/healthz`,
    });
    expect(check("public URL")?.detail).toStartWith(`http://localhost:${port}: `);
  });

  test("a running demo is recognised, from its data folder and from the demo's own folder", async () => {
    const cwd = scratch.dir();
    const dataDir = join(cwd, "data");
    const demo = await scratch.serve(["serve", "--demo", "--port", "0", "--data-dir", dataDir], { cwd });
    const port = new URL(demo.url).port;
    const expected = `cuebot serve --demo runs on this data folder (its demo data in ${join(dataDir, "demo")}): pid ${demo.proc.pid} at ${demo.url}`;
    const fromData = await doctor(dataDir, cwd, twitchEnv());
    expect(fromData.check("instances")?.detail).toBe(expected);
    expect(fromData.check("server")?.detail).toBe(`a server answers on http://127.0.0.1:${port}/healthz`);
    const fromDemo = await doctor(join(dataDir, "demo"), cwd, twitchEnv());
    expect(fromDemo.check("instances")?.detail).toBe(expected);
    expect(fromDemo.check("server")?.detail).toBe(`a server answers on http://127.0.0.1:${port}/healthz`);
    expect(await demo.stop()).toBe(0);
    expect((await doctor(dataDir, cwd, twitchEnv())).check("instances")?.detail).toBe(
      "no cuebot serve runs on this data folder",
    );
  });

  test("a running server is noticed", async () => {
    const cwd = scratch.dir();
    const dataDir = await initDataDir(cwd, undefined, { database: "sqlite" });
    const server = await scratch.serve(["serve", "--port", "0", "--data-dir", dataDir], { cwd });
    const port = new URL(server.url).port;
    const { check } = await doctor(dataDir, cwd, { ...twitchEnv(), CUEBOT_PORT: port });
    expect(check("server")).toEqual({
      check: "server",
      status: "info",
      detail: `a server answers on http://127.0.0.1:${port}/healthz`,
    });
  });
});
