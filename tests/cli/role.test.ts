import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { initDataDir, Scratch, seedAccount } from "../helpers/cli.ts";

const scratch = new Scratch();
let cwd: string;
let dataDir: string;
beforeEach(async () => {
  cwd = scratch.dir();
  dataDir = await initDataDir(cwd);
  await seedAccount(dataDir, "alice");
  await seedAccount(dataDir, "bob");
});
afterEach(() => scratch.cleanup());

const cuebot = (...args: string[]) => scratch.run([...args, "--data-dir", dataDir], { cwd });

const NO_ACCOUNT = (login: string) =>
  `cuebot: no account with login "${login}" (the streamer must log in once first)\n`;

describe("cuebot role", () => {
  test("new accounts are Default with no override", async () => {
    const result = await cuebot("role", "list", "--json");
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([
      { login: "alice", role: "Default", panelLimitOverride: null },
      { login: "bob", role: "Default", panelLimitOverride: null },
    ]);
  });

  test("role set is case-insensitive and shows in role list", async () => {
    const set = await cuebot("role", "set", "alice", "PARTNER");
    expect(set).toEqual({ code: 0, stdout: "alice is now Partner (was Default)\n", stderr: "" });
    const vip = await cuebot("role", "set", "bob", "vip", "--json");
    expect(JSON.parse(vip.stdout)).toEqual({ login: "bob", role: "VIP" });

    const list = await cuebot("role", "list");
    expect(list.code).toBe(0);
    expect(list.stdout).toBe(
      ["LOGIN  ROLE     PANEL OVERRIDE", "alice  Partner  -", "bob    VIP      -", ""].join("\n"),
    );
  });

  test("the login is matched case-insensitively (and a leading @ is ignored)", async () => {
    expect((await cuebot("role", "set", "@Alice", "pro")).code).toBe(0);
    const list = JSON.parse((await cuebot("role", "list", "--json")).stdout) as { role: string }[];
    expect(list[0]?.role).toBe("Pro");
  });

  test("an unknown role: exit 2 listing the four roles, nothing changed", async () => {
    const result = await cuebot("role", "set", "alice", "wizard");
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toStartWith("cuebot: ");
    expect(result.stderr).toContain('unknown role "wizard"; the roles are default, pro, vip, partner');
    const list = JSON.parse((await cuebot("role", "list", "--json")).stdout) as { role: string }[];
    expect(list[0]?.role).toBe("Default");
  });

  test("usage is checked before the lookup: role set nobody wizard exits 2, not 1", async () => {
    const result = await cuebot("role", "set", "nobody", "wizard");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("the roles are default, pro, vip, partner");
    expect(result.stderr).not.toContain("no account");
  });

  test("an unknown login: exit 1 with the contract's message", async () => {
    expect(await cuebot("role", "set", "nobody", "pro")).toEqual({
      code: 1,
      stdout: "",
      stderr: NO_ACCOUNT("nobody"),
    });
    expect((await cuebot("role", "override", "nobody", "5")).stderr).toBe(NO_ACCOUNT("nobody"));
  });

  test("role override sets a limit, shows it, and off removes it", async () => {
    const set = await cuebot("role", "override", "alice", "1500");
    expect(set).toEqual({
      code: 0,
      stdout: "alice: panel limit set to 1500 requests per minute\n",
      stderr: "",
    });
    expect(JSON.parse((await cuebot("role", "list", "--json")).stdout)).toEqual([
      { login: "alice", role: "Default", panelLimitOverride: 1500 },
      { login: "bob", role: "Default", panelLimitOverride: null },
    ]);
    expect((await cuebot("role", "list")).stdout).toContain("alice  Default  1500/min");

    const json = await cuebot("role", "override", "alice", "1000000", "--json");
    expect(JSON.parse(json.stdout)).toEqual({ login: "alice", panelLimitOverride: 1000000 });

    const off = await cuebot("role", "override", "alice", "OFF");
    expect(off.stdout).toBe("alice: panel limit override removed (the role's limit applies)\n");
    const list = JSON.parse((await cuebot("role", "list", "--json")).stdout) as {
      panelLimitOverride: number | null;
    }[];
    expect(list[0]?.panelLimitOverride).toBeNull();
  });

  test("an override outside 1–1000000 or not a number: exit 2, checked before the lookup", async () => {
    for (const bad of ["0", "1000001", "-5", "abc", "1.5", "1e3"]) {
      const result = await cuebot("role", "override", "nobody", bad);
      expect({ bad, code: result.code }).toEqual({ bad, code: 2 });
      expect(result.stderr).toContain(`"${bad}" must be a whole number from 1 to 1000000, or "off"`);
    }
  });
});
