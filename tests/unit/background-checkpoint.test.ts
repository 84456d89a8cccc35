import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BackgroundCheckpoint } from "../../db/background-checkpoint.ts";
import { type DatabaseHandle, openDatabase } from "../../db/client.ts";

const folders: string[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function scratchDatabase(): { path: string; handle: DatabaseHandle } {
  const folder = mkdtempSync(join(tmpdir(), "cuebot-checkpoint-"));
  folders.push(folder);
  const path = join(folder, "cuebot.db");
  const handle = openDatabase(path);
  cleanups.push(() => handle.close());
  handle.sqlite.exec("CREATE TABLE rows (n INTEGER, body TEXT); CREATE INDEX rows_n ON rows (n)");
  // As a serving connection: no automatic checkpoint on this connection.
  handle.checkpointWhenIdle();
  return { path, handle };
}

const fileSize = (path: string) => {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
};

/** Polls until `done` holds; fails with `what` after 10 s (no assertion on how fast). */
async function eventually(what: string, done: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`not within 10 s: ${what}`);
    await Bun.sleep(10);
  }
}

describe("WAL checkpoints on a worker thread", () => {
  test("the worker copies the WAL into the database file, so the WAL starts over and stays small", async () => {
    const { path, handle } = scratchDatabase();
    const checkpoints = new BackgroundCheckpoint(path);
    cleanups.push(() => checkpoints.stop());
    await checkpoints.started;

    const insert = handle.sqlite.prepare("INSERT INTO rows VALUES (?, ?)");
    const batch = handle.sqlite.transaction((from: number) => {
      for (let n = from; n < from + 500; n++) insert.run((n * 7919) % 100_003, "x".repeat(100));
    });
    for (let i = 0; i < 40; i++) {
      batch(i * 500);
      await Bun.sleep(5);
    }
    const pageSize = (handle.sqlite.query("PRAGMA page_size").get() as { page_size: number }).page_size;
    const pages = (handle.sqlite.query("PRAGMA page_count").get() as { page_count: number }).page_count;
    // This connection never checkpoints, so the file grows only by the worker's copies.
    await eventually("the database file holds every page", () => fileSize(path) >= pages * pageSize);

    // Copied to its end, the WAL starts over at the next write and is cut back to journal_size_limit.
    batch(1_000_000);
    expect(fileSize(`${path}-wal`)).toBeLessThanOrEqual(4 * 1024 * 1024 + 64 * pageSize);
    const count = handle.sqlite.query("SELECT count(*) AS n FROM rows").get() as { n: number };
    expect(count.n).toBe(41 * 500);
  });

  test("stop() ends the worker after a last checkpoint; nothing written is lost", async () => {
    const { path, handle } = scratchDatabase();
    const checkpoints = new BackgroundCheckpoint(path, { intervalMs: 60_000 });
    await checkpoints.started;
    handle.sqlite.exec("INSERT INTO rows VALUES (1, 'last')");
    await checkpoints.stop();
    handle.close();
    const reopened = openDatabase(path, { readonly: true });
    cleanups.push(() => reopened.close());
    expect(reopened.sqlite.query("SELECT body FROM rows").all()).toEqual([{ body: "last" }]);
  });

  test("a database it cannot open is reported, and the caller goes on", async () => {
    const folder = mkdtempSync(join(tmpdir(), "cuebot-checkpoint-"));
    folders.push(folder);
    const errors: string[] = [];
    const checkpoints = new BackgroundCheckpoint(join(folder, "missing", "cuebot.db"), {
      onError: (message) => errors.push(message),
    });
    cleanups.push(() => checkpoints.stop());
    await eventually("the failure is reported", () => errors.length > 0);
    expect(errors[0]).toMatch(/unable to open|no such file|cannot open/i);
    await checkpoints.stop();
  });
});
