import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { Scratch } from "../helpers/cli.ts";

const scratch = new Scratch();
afterEach(() => scratch.cleanup());

const TOKEN = "[A-Za-z0-9_-]{43}";
const publicUrlOf = (listening: string) => listening.replace("127.0.0.1", "localhost");

describe("serve without Twitch configured prints a one-time setup link (CONTRACT §2)", () => {
  test("pretty: the warning names the command as it works here, the link and the demo; the link follows on a line of its own", async () => {
    const cwd = scratch.dir();
    const server = await scratch.serve(
      ["serve", "--port", "0", "--log-format", "pretty", "--data-dir", join(cwd, "data")],
      { cwd },
    );
    const lines = server.stdout().split("\n");
    const warning = lines.findIndex((line) => line.includes("Twitch login is not configured"));
    expect(warning).toBeGreaterThanOrEqual(0);
    expect(lines[warning]).toContain("WARN");
    expect(lines[warning]).toContain("setup link");
    expect(lines[warning]).toContain(
      "npm run cuebot -- init --twitch-client-id <id> --twitch-client-secret <secret>",
    );
    expect(lines[warning]).toContain("npm start -- --demo");
    expect(lines[warning]).not.toContain("`");
    const link = lines[warning + 1]!;
    expect(link).toMatch(new RegExp(`^${publicUrlOf(server.url)}/setup\\?token=${TOKEN}$`));
    // The token is printed once, on that line only; the page works with it.
    const token = link.split("token=")[1]!;
    expect(server.stdout().split(token)).toHaveLength(2);
    const page = await fetch(`${server.url}/setup?token=${token}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`${publicUrlOf(server.url)}/auth/callback`);
    expect(await server.stop()).toBe(0);
    // The request log never shows it.
    expect(server.stdout().split(token)).toHaveLength(2);
  });

  test("json with --log error: the link is still printed, as one JSON object whose msg is the link", async () => {
    const cwd = scratch.dir();
    const server = await scratch.serve(
      ["serve", "--port", "0", "--log", "error", "--log-format", "json", "--data-dir", join(cwd, "data")],
      { cwd },
    );
    const lines = server.stdout().trim().split("\n");
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as { level: string; time: string; msg: string };
    expect(Object.keys(line)).toEqual(["level", "time", "msg"]);
    expect(line.msg).toMatch(new RegExp(`^${publicUrlOf(server.url)}/setup\\?token=${TOKEN}$`));
    expect(await server.stop()).toBe(0);
  });

  test("a new token at each start; none when Twitch is configured", async () => {
    const cwd = scratch.dir();
    const dataDir = join(cwd, "data");
    const linkOf = (stdout: string) => /\/setup\?token=([A-Za-z0-9_-]+)/.exec(stdout)?.[1];
    const first = await scratch.serve(["serve", "--port", "0", "--data-dir", dataDir], { cwd });
    expect(await first.stop()).toBe(0);
    const second = await scratch.serve(["serve", "--port", "0", "--data-dir", dataDir], { cwd });
    expect(await second.stop()).toBe(0);
    expect(linkOf(first.stdout())).toBeDefined();
    expect(linkOf(second.stdout())).toBeDefined();
    expect(linkOf(first.stdout())).not.toBe(linkOf(second.stdout()));

    const configured = await scratch.serve(["serve", "--port", "0", "--data-dir", dataDir], {
      cwd,
      env: { CUEBOT_TWITCH_CLIENT_ID: "cid", CUEBOT_TWITCH_CLIENT_SECRET: "secret" },
    });
    expect((await fetch(`${configured.url}/setup?token=x`)).status).toBe(403);
    expect(await configured.stop()).toBe(0);
    expect(configured.stdout()).not.toContain("/setup?token=");
    expect(configured.stdout()).not.toContain("not configured");
  });
});

describe("npm start --demo (npm keeps the flag and sets npm_config_demo)", () => {
  test("npm_config_demo=true starts the demo", async () => {
    const cwd = scratch.dir();
    const server = await scratch.serve(["serve", "--port", "0", "--data-dir", join(cwd, "data")], {
      cwd,
      env: { npm_config_demo: "true" },
    });
    expect(server.stdout()).toContain("demo mode");
    expect(server.stdout()).not.toContain("/setup?token=");
    expect(await server.stop()).toBe(0);
  });

  test("anything else does not", async () => {
    const cwd = scratch.dir();
    const server = await scratch.serve(["serve", "--port", "0", "--data-dir", join(cwd, "data")], {
      cwd,
      env: { npm_config_demo: "false" },
    });
    expect(server.stdout()).not.toContain("demo mode");
    expect(await server.stop()).toBe(0);
  });
});
