import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import { REPO_ROOT, Scratch } from "../helpers/cli.ts";
import { freePort } from "../helpers/engines.ts";

/**
 * What an idle `serve` holds (issue 26, RSS idle): on the embedded database with no Redis, the code of
 * node-redis and of PostgreSQL stays unloaded, and of arctic only the OAuth 2.0 helpers cuebot uses
 * (its index re-exports ~70 providers). Drizzle's own pg-core is not checked: drizzle-orm's core
 * imports part of it whatever the dialect.
 */
const scratch = new Scratch();
afterEach(() => scratch.cleanup());

const LOADER = [process.execPath, join(REPO_ROOT, "tests", "helpers", "loaded-modules.ts")];
const NOT_AT_IDLE =
  /node_modules\/(redis|@redis)\/|node_modules\/arctic\/dist\/(index|providers\/)|^db\/pg\/|^server\/core\/postgres-storage\.ts$/;

test("serve on an empty data folder loads no Redis client, no PostgreSQL code and no OAuth providers", async () => {
  const dataDir = scratch.dir();
  const args = ["serve", "--data-dir", dataDir, "--port", String(await freePort()), "--log", "warn"];
  const result = await scratch.run(args, { cwd: dataDir, command: LOADER });
  expect(result.code).toBe(0);
  const line = result.stderr.split("\n").find((l) => l.startsWith("LOADED "));
  const loaded = (JSON.parse(line?.slice("LOADED ".length) ?? "[]") as string[]).map((path) =>
    path.startsWith(REPO_ROOT) ? path.slice(REPO_ROOT.length + 1) : path,
  );
  expect(loaded).toContain("server/app.ts");
  expect(loaded.filter((path) => NOT_AT_IDLE.test(path))).toEqual([]);
}, 30_000);
