import { describe, expect, test } from "bun:test";
import { configureCommand, howToConfigure, invocationOf } from "../../../server/core/invocation.ts";

const checkout = invocationOf({
  main: "/home/me/cuebot/cli/main.ts",
  execPath: "/home/me/cuebot/node_modules/bun/bin/bun.exe",
  cwd: "/home/me/cuebot",
  path: "/usr/bin:/bin",
});
const compiled = (execPath: string, cwd: string, path = "/usr/bin:/bin") =>
  invocationOf({ main: "/$bunfs/root/cuebot", execPath, cwd, path });

describe("the command a message names (CONTRACT §2)", () => {
  test("in a source checkout: npm run cuebot -- …, npm start, npm start -- --demo", () => {
    expect(configureCommand(checkout)).toBe(
      "npm run cuebot -- init --twitch-client-id <id> --twitch-client-secret <secret>",
    );
    expect(checkout.serve).toBe("npm start");
    expect(checkout.demo).toBe("npm start -- --demo");
  });

  test("the compiled binary: its name when its folder is on PATH", () => {
    const onPath = compiled("/usr/local/bin/cuebot", "/srv", "/usr/bin:/usr/local/bin");
    expect(configureCommand(onPath)).toBe(
      "cuebot init --twitch-client-id <id> --twitch-client-secret <secret>",
    );
    expect(onPath.demo).toBe("cuebot serve --demo");
    expect(onPath.serve).toBe("cuebot serve");
  });

  test("the compiled binary below the working folder: ./ and its path from there", () => {
    const below = compiled("/home/me/cuebot/dist/cuebot", "/home/me/cuebot");
    expect(below.command("init")).toBe("./dist/cuebot init");
    expect(below.demo).toBe("./dist/cuebot serve --demo");
    // A renamed binary keeps its own name.
    expect(compiled("/opt/bot/mybot", "/opt/bot").serve).toBe("./mybot serve");
  });

  test("the compiled binary elsewhere: its absolute path", () => {
    expect(compiled("/opt/cuebot/cuebot", "/home/me").command("doctor")).toBe("/opt/cuebot/cuebot doctor");
  });

  test("the guidance names the setup link (no token), the command and the demo, without backticks", () => {
    const text = howToConfigure(checkout);
    expect(text).toContain("the setup link printed when cuebot started");
    expect(text).toContain(configureCommand(checkout));
    expect(text).toContain("npm start -- --demo");
    expect(text).not.toContain("`");
    expect(text).not.toContain("token=");
  });
});
