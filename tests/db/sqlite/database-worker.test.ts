import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { recentEvents } from "../../../db/events.ts";
import { sha256Hex } from "../../../db/lookup-hash.ts";
import { type DatabaseHandle, openDatabase } from "../../../db/sqlite/connection.ts";
import { DatabaseWorker } from "../../../db/sqlite/database-worker.ts";
import type { WriteBehindEventSink } from "../../../db/sqlite/write-behind-event-sink.ts";
import { rotateApiKey } from "../../../server/core/accounts.ts";
import { createTestAccount, createTestContext, onPostgres, type TestContext } from "../../helpers/context.ts";
import { commandEvent, recordAroundDeletedAccount } from "../../helpers/events.ts";

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
    const checkpoints = new DatabaseWorker(path);
    cleanups.push(() => checkpoints.stop());
    await checkpoints.started;

    const insert = handle.sqlite.prepare("INSERT INTO rows VALUES (?, ?)");
    const batch = handle.sqlite.transaction((from: number) => {
      for (let n = from; n < from + 500; n++) insert.run((n * 7919) % 100_003, "x".repeat(100));
    });
    for (let i = 0; i < 40; i++) {
      batch(i * 500);
      // As the server's store does after each commit (listen.ts): the worker checkpoints after writes.
      checkpoints.wrote();
      await Bun.sleep(5);
    }
    const pageSize = (handle.sqlite.query("PRAGMA page_size").get() as { page_size: number }).page_size;
    const pages = (handle.sqlite.query("PRAGMA page_count").get() as { page_count: number }).page_count;
    // This connection never checkpoints, so the file grows only by the worker's copies.
    await eventually("the database file holds every page", () => fileSize(path) >= pages * pageSize);

    // Copied to its end, the WAL starts over at the next write and is cut back to journal_size_limit.
    // (Once the worker's checkpoint has reached the WAL's end: under load that may take a few writes.)
    let writes = 0;
    await eventually("the WAL starts over, cut back to journal_size_limit", () => {
      batch(1_000_000 + writes++ * 500);
      checkpoints.wrote();
      return fileSize(`${path}-wal`) <= 4 * 1024 * 1024 + 64 * pageSize;
    });
    const count = handle.sqlite.query("SELECT count(*) AS n FROM rows").get() as { n: number };
    expect(count.n).toBe((40 + writes) * 500);
  });

  test("a write just after the worker's own checkpoint is still checkpointed, though its note came within the span", async () => {
    const { path, handle } = scratchDatabase();
    handle.sqlite.exec(
      "CREATE TABLE events (id INTEGER PRIMARY KEY, account_id, at, command, caller, outcome, latency_ms)",
    );
    // 200 ms instead of 10 makes the order of events certain.
    const worker = new DatabaseWorker(path, { intervalMs: 200 });
    cleanups.push(() => worker.stop());
    await worker.writeEvents([commandEvent(1, 1)], true); // the thread stores it and arms its checkpoint
    await Bun.sleep(100);
    handle.sqlite.run("INSERT INTO rows VALUES (1, 'a')");
    worker.wrote(); // told; the thread's checkpoint is armed already
    await Bun.sleep(140); // that checkpoint ran and reached the WAL's end
    handle.sqlite.run("INSERT INTO rows VALUES (2, 'b')");
    worker.wrote(); // within 200 ms of the last note: held back to the span's end, not dropped
    await Bun.sleep(800);
    // The test's own look at the wal-index header (SQLite's documented file format; never in product
    // code): every frame of the WAL is in the database file.
    const shm = readFileSync(`${path}-shm`);
    expect(shm.readUInt32LE(96)).toBe(shm.readUInt32LE(16));
  });

  test("stop() ends the worker after a last checkpoint; nothing written is lost", async () => {
    const { path, handle } = scratchDatabase();
    const checkpoints = new DatabaseWorker(path, { intervalMs: 60_000 });
    await checkpoints.started;
    handle.sqlite.exec("INSERT INTO rows VALUES (1, 'last')");
    await checkpoints.stop();
    handle.close();
    const reopened = openDatabase(path, { readonly: true });
    cleanups.push(() => reopened.close());
    expect(reopened.sqlite.query("SELECT body FROM rows").all()).toEqual([{ body: "last" }]);
  });

  test("a database it cannot open is reported as a failure; flushes are answered, later events reported dropped", async () => {
    const folder = mkdtempSync(join(tmpdir(), "cuebot-checkpoint-"));
    folders.push(folder);
    const failures: string[] = [];
    const dropped: number[] = [];
    const worker = new DatabaseWorker(join(folder, "missing", "cuebot.db"), {
      onFailed: (reason) => failures.push(reason),
      onDropped: (count) => dropped.push(count),
    });
    cleanups.push(() => worker.stop());
    // The thread starts with the first work (or `started`), and fails then.
    await worker.started;
    await eventually("the failure is reported", () => failures.length > 0);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/could not open the database: .*(unable to open|no such file|cannot open)/i);
    expect(worker.failed).toBe(true);
    await worker.writeEvents([event(1, 1)], true);
    expect(dropped).toEqual([1]);
    await worker.stop();
  });
});

describe("an idle worker", () => {
  test("no thread starts until work is handed over; a flush with nothing handed over needs none", async () => {
    const { path } = scratchDatabase();
    const worker = new DatabaseWorker(path);
    cleanups.push(() => worker.stop());
    worker.wrote();
    await worker.writeEvents([], true);
    expect(worker.running).toBe(false);
    await worker.stop();
  });

  test("with nothing written, the worker checkpoints nothing: a write made behind its back stays in the WAL", async () => {
    const { path, handle } = scratchDatabase();
    const worker = new DatabaseWorker(path, { intervalMs: 5 });
    cleanups.push(() => worker.stop());
    await worker.started;
    // What it checkpointed at its start is in the file; wait for that, then write ~200 new pages.
    await Bun.sleep(100);
    const before = fileSize(path);
    handle.sqlite.exec(
      "WITH RECURSIVE n(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM n WHERE v < 2000) INSERT INTO rows SELECT v, printf('%.400c', 'x') FROM n",
    );
    await Bun.sleep(300);
    // A timer every few ms (the old design) would have copied them into the file by now.
    expect(fileSize(path)).toBe(before);
    // Told of the write, it copies the WAL into the file.
    worker.wrote();
    await eventually("the write reaches the database file", () => fileSize(path) > before);
  });
});

const event = commandEvent;

describe.skipIf(onPostgres)("analytics events stored by the worker", () => {
  async function serving(): Promise<{ t: TestContext; worker: DatabaseWorker; sink: WriteBehindEventSink }> {
    const t = await createTestContext();
    cleanups.push(() => t.cleanup());
    const worker = new DatabaseWorker(t.ctx.database!.path);
    const sink = t.ctx.events as WriteBehindEventSink;
    await sink.handOverTo(worker);
    cleanups.push(async () => {
      await sink.handOverTo(null);
      await worker.stop();
    });
    return { t, worker, sink };
  }

  test("a flush returns once the worker has stored every event handed over, with every field", async () => {
    const { t, sink } = await serving();
    const { account } = await createTestAccount(t.ctx);
    const other = (await createTestAccount(t.ctx)).account;
    for (let n = 1; n <= 700; n++) sink.record(event(n % 2 ? account.id : other.id, n));
    await sink.flush();
    const rows = await recentEvents(t.ctx.db, account.id, 1_000);
    expect(rows).toHaveLength(350);
    expect(rows.slice(0, 2).map((r) => [r.at, r.command, r.caller, r.outcome, r.latencyMs])).toEqual([
      [1_700_000_000_699, "dice", "viewer699", "ok", 699],
      [1_700_000_000_697, "dice", "viewer697", "ok", 697],
    ]);
    expect(await recentEvents(t.ctx.db, other.id, 1_000)).toHaveLength(350);
  });

  test("events are stored within the worker's bound without any flush", async () => {
    const { t, sink } = await serving();
    const { account } = await createTestAccount(t.ctx);
    for (let n = 1; n <= 5; n++) sink.record(event(account.id, n));
    await eventually("the events are stored", () => {
      const row = t.ctx.database!.sqlite.query("SELECT count(*) AS n FROM events").get() as { n: number };
      return row.n === 5;
    });
  });

  test("an event whose account was deleted meanwhile is dropped and reported; the others are kept", async () => {
    const t = await createTestContext();
    cleanups.push(() => t.cleanup());
    const dropped: number[] = [];
    const worker = new DatabaseWorker(t.ctx.database!.path, { onDropped: (count) => dropped.push(count) });
    const sink = t.ctx.events as WriteBehindEventSink;
    await sink.handOverTo(worker);
    cleanups.push(async () => {
      await sink.handOverTo(null);
      await worker.stop();
    });
    expect(await recordAroundDeletedAccount(t.ctx, sink)).toEqual(["viewer3", "viewer1"]);
    await eventually("the drop is reported", () => dropped.length > 0);
    expect(dropped).toEqual([1]);
  });

  test("a worker that has stopped reports what it is handed as dropped, and a flush does not wait for it", async () => {
    const t = await createTestContext();
    cleanups.push(() => t.cleanup());
    const dropped: number[] = [];
    const worker = new DatabaseWorker(t.ctx.database!.path, { onDropped: (count) => dropped.push(count) });
    await worker.stop();
    const { account } = await createTestAccount(t.ctx);
    await worker.writeEvents([event(account.id, 1), event(account.id, 2)], true);
    expect(dropped).toEqual([2]);
  });

  test("taking the events back stores what the worker holds first; later events go through the connection", async () => {
    const { t, worker, sink } = await serving();
    const { account } = await createTestAccount(t.ctx);
    sink.record(event(account.id, 1));
    await sink.handOverTo(null);
    await worker.stop();
    expect(await recentEvents(t.ctx.db, account.id, 10)).toHaveLength(1);
    sink.record(event(account.id, 2));
    await sink.flush();
    expect(await recentEvents(t.ctx.db, account.id, 10)).toHaveLength(2);
  });

  test("when a key was last used is written by the worker, in order with the events", async () => {
    const { t, worker, sink } = await serving();
    const { account, apiKey } = await createTestAccount(t.ctx);
    worker.touch("api-key", { accountId: account.id, lookupHash: sha256Hex(apiKey) }, 1_700_000_123_000);
    sink.record(event(account.id, 1));
    await sink.flush();
    const row = t.ctx
      .database!.sqlite.query("SELECT last_used_at AS at FROM api_keys WHERE account_id = ?")
      .get(account.id) as { at: number | null };
    expect(row.at).toBe(1_700_000_123_000);
  });

  test("a note of use that waited while the key was rotated leaves the new key alone", async () => {
    const { t, worker, sink } = await serving();
    const { account, apiKey } = await createTestAccount(t.ctx);
    await rotateApiKey(t.ctx, account, "panel");
    worker.touch("api-key", { accountId: account.id, lookupHash: sha256Hex(apiKey) }, 1_700_000_123_000);
    await sink.flush();
    const row = t.ctx
      .database!.sqlite.query("SELECT last_used_at AS at FROM api_keys WHERE account_id = ?")
      .get(account.id) as { at: number | null };
    expect(row.at).toBeNull();
  });
});
