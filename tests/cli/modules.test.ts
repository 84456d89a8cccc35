import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { initDataDir, REPO_ROOT, Scratch, seedAccount } from "../helpers/cli.ts";
import { onPostgres } from "../helpers/context.ts";

/**
 * The admin commands open the core only (CONTRACT §3: nothing a command does may disturb a running
 * server), and each loads its own code only (cli/commands/ registers them, cli/actions/ is loaded by
 * the one that runs): no HTTP framework, limiter, cache of upstream answers, chat runtime, simulator,
 * Redis client or, on the embedded database, PostgreSQL code is loaded.
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

/**
 * Beyond the core: the HTTP framework and node-redis, every server module outside server/core/ (the
 * runtime, routes, features, Redis stores, simulators), and PostgreSQL's code, which a command on the
 * embedded database never needs.
 */
// The vocabulary (server/vocabulary.ts) is below the store: every command may load it.
const BEYOND_THE_CORE = onPostgres
  ? // Under `npm run test:postgres` the data folder names a PostgreSQL database: its code is the core's.
    /node_modules\/(elysia|@elysiajs|redis|@redis)\/|^server\/(?!core\/|vocabulary\.ts$)/
  : /node_modules\/(elysia|@elysiajs|redis|@redis)\/|^server\/(?!core\/|vocabulary\.ts$)|^server\/core\/postgres-storage\.ts$|^db\/pg\//;

/** Every other command's implementation: `role set` loads cli/actions/role.ts and no other action. */
const ACTIONS = /^cli\/actions\//;

describe("what an admin command loads", () => {
  for (const args of [
    ["role", "set", "alice", "vip"],
    ["key", "rotate", "alice"],
    ["users", "list"],
  ]) {
    test(`cuebot ${args.join(" ")}: the core only, no HTTP framework, server runtime, Redis or PostgreSQL`, async () => {
      const loaded = await modulesLoadedBy(...args);
      expect(loaded).toContain("server/core/context.ts");
      expect(loaded.filter((path) => BEYOND_THE_CORE.test(path))).toEqual([]);
      expect(loaded.filter((path) => ACTIONS.test(path))).toEqual([`cli/actions/${args[0]}.ts`]);
    });
  }

  test("cuebot doctor on a data folder: its checks and the core, no HTTP framework, Redis or PostgreSQL", async () => {
    const loaded = await modulesLoadedBy("doctor");
    expect(loaded).toContain("server/doctor.ts");
    expect(loaded.filter((path) => path !== "server/doctor.ts" && BEYOND_THE_CORE.test(path))).toEqual([]);
  });
});
