import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { initDataDir, REPO_ROOT, Scratch, seedAccount } from "../helpers/cli.ts";

/**
 * The admin commands open the core only (CONTRACT §3: nothing a command does may disturb a running
 * server): no HTTP framework, limiter, cache of upstream answers, chat runtime or simulator is loaded.
 */
const scratch = new Scratch();
let cwd: string;
let dataDir: string;
beforeEach(async () => {
  cwd = scratch.dir();
  dataDir = await initDataDir(cwd);
  await seedAccount(dataDir, "alice");
});
afterEach(() => scratch.cleanup());

const LOADER = [process.execPath, join(REPO_ROOT, "tests", "helpers", "loaded-modules.ts")];

async function modulesLoadedBy(...args: string[]): Promise<string[]> {
  const result = await scratch.run([...args, "--data-dir", dataDir], { cwd, command: LOADER });
  expect(result.code).toBe(0);
  const line = result.stderr.split("\n").find((l) => l.startsWith("LOADED "));
  return (JSON.parse(line?.slice("LOADED ".length) ?? "[]") as string[]).map((path) =>
    path.startsWith(REPO_ROOT) ? path.slice(REPO_ROOT.length + 1) : path,
  );
}

/** The server runtime; the address parsing of limits/ip-key.ts is plain parsing that config.ts uses. */
const SERVER_RUNTIME =
  /node_modules\/(elysia|@elysiajs)\/|^server\/(runtime|start|demo|shared-stores|maintenance)\.ts$|^server\/(http|cache|game|bot|overlay|sim|twitch|web)\/|^server\/limits\/(?!ip-key\.ts$)|^server\/chat\/(manager|leader|eventsub)/;

describe("what an admin command loads", () => {
  for (const args of [
    ["role", "set", "alice", "vip"],
    ["key", "rotate", "alice"],
    ["users", "list"],
  ]) {
    test(`cuebot ${args.join(" ")}: the core only, no HTTP framework or server runtime`, async () => {
      const loaded = await modulesLoadedBy(...args);
      expect(loaded).toContain("server/core/context.ts");
      expect(loaded.filter((path) => SERVER_RUNTIME.test(path))).toEqual([]);
    });
  }
});
