import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { deleteAccountRow } from "../../db/accounts.ts";
import { deleteAuditOf } from "../../db/audit.ts";
import type { DataStore } from "../../db/data-store.ts";
import { BatchedEventSink, EVENT_BUFFER_MAX_WAITING } from "../../db/event-sink.ts";
import { recentEvents } from "../../db/events.ts";
import { openDatabase } from "../../db/sqlite/connection.ts";
import { SqliteDataStore } from "../../db/sqlite/sqlite-data-store.ts";
import { WriteBehindEventSink } from "../../db/sqlite/write-behind-event-sink.ts";
import { StoreUnavailableError } from "../../db/store-unavailable.ts";
import { DATABASE_FILE } from "../../server/core/data-dir.ts";
import { createTestAccount, createTestContext, onPostgres, type TestContext } from "../helpers/context.ts";
import { commandEvent, recordAroundDeletedAccount } from "../helpers/events.ts";

let t: TestContext;
afterEach(() => t.cleanup());

const event = commandEvent;

describe.skipIf(onPostgres)("analytics events written behind on SQLite", () => {
  test("buffered until flushed, then stored in order with every field", async () => {
    t = await createTestContext();
    const { account } = await createTestAccount(t.ctx);
    const sink = new WriteBehindEventSink(t.ctx.database!.sqlite, t.ctx.db as SqliteDataStore, {
      maxRows: 100,
    });
    for (let n = 1; n <= 3; n++) sink.record(event(account.id, n));
    expect(await recentEvents(t.ctx.db, account.id, 10)).toHaveLength(0);
    await sink.flush();
    const rows = await recentEvents(t.ctx.db, account.id, 10);
    expect(rows.map((r) => [r.at, r.command, r.caller, r.outcome, r.latencyMs])).toEqual(
      [3, 2, 1].map((n) => [1_700_000_000_000 + n, "dice", `viewer${n}`, "ok", n]),
    );
  });

  test("never more than maxRows behind: the row that fills the buffer writes it", async () => {
    t = await createTestContext();
    const { account } = await createTestAccount(t.ctx);
    const sink = new WriteBehindEventSink(t.ctx.database!.sqlite, t.ctx.db as SqliteDataStore, {
      maxRows: 4,
    });
    for (let n = 1; n <= 9; n++) sink.record(event(account.id, n));
    expect(await recentEvents(t.ctx.db, account.id, 20)).toHaveLength(8);
    await sink.flush();
    expect(await recentEvents(t.ctx.db, account.id, 20)).toHaveLength(9);
  });

  test("an event whose account was deleted meanwhile is dropped and reported; the others are kept", async () => {
    t = await createTestContext();
    const dropped: number[] = [];
    const sink = new WriteBehindEventSink(t.ctx.database!.sqlite, t.ctx.db as SqliteDataStore, {
      onDropped: (count) => dropped.push(count),
    });
    expect(await recordAroundDeletedAccount(t.ctx, sink)).toEqual(["viewer3", "viewer1"]);
    expect(dropped).toEqual([1]);
  });

  test("a flush while a transaction is open waits for its end instead of joining it", async () => {
    t = await createTestContext();
    const { account } = await createTestAccount(t.ctx);
    const store = t.ctx.db as SqliteDataStore;
    const sink = new WriteBehindEventSink(t.ctx.database!.sqlite, store, { maxRows: 100 });
    sink.record(event(account.id, 1));
    let flushed: Promise<void> | null = null;
    await expect(
      store.transaction(async (tx) => {
        await deleteAuditOf(tx, account.id);
        flushed = sink.flush();
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    await flushed;
    // The event was written after the rollback, so it is there.
    expect(await recentEvents(t.ctx.db, account.id, 10)).toHaveLength(1);
  });

  test("closing the context writes what is still buffered", async () => {
    t = await createTestContext();
    const { account } = await createTestAccount(t.ctx);
    t.ctx.events.record(event(account.id, 1));
    const dataDir = t.dataDir;
    await t.ctx.close();
    const reopened = openDatabase(join(dataDir, DATABASE_FILE));
    try {
      expect(
        await recentEvents(new SqliteDataStore(reopened.sqlite, reopened.db), account.id, 10),
      ).toHaveLength(1);
    } finally {
      reopened.close();
    }
  });
});

describe("analytics events written behind through the store (PostgreSQL's sink)", () => {
  test("batches in order; a bad row is dropped and reported, the others kept; flush waits for the write", async () => {
    t = await createTestContext();
    const kept = (await createTestAccount(t.ctx)).account;
    const gone = (await createTestAccount(t.ctx)).account;
    const dropped: number[] = [];
    const sink = new BatchedEventSink(t.ctx.db, { maxRows: 3, onDropped: (count) => dropped.push(count) });
    sink.record(event(kept.id, 1));
    sink.record(event(kept.id, 2));
    await deleteAccountRow(t.ctx.db, gone.id);
    sink.record(event(gone.id, 3)); // fills the buffer: written now
    sink.record(event(kept.id, 4));
    await sink.flush();
    expect((await recentEvents(t.ctx.db, kept.id, 10)).map((r) => r.caller)).toEqual([
      "viewer4",
      "viewer2",
      "viewer1",
    ]);
    expect(dropped).toEqual([1]);
  });
});

describe("the PostgreSQL sink while the database is slow or away", () => {
  /** A store whose writes wait until released, recording the rows of every batch. */
  function slowStore() {
    const batches: number[] = [];
    let release = () => {};
    let gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const store = {
      dialect: "postgres",
      async run(build: (db: unknown, t: { events: unknown }) => unknown) {
        const values: { rows: unknown[] } = { rows: [] };
        build(
          {
            insert: () => ({
              values: (rows: unknown) => (values.rows = Array.isArray(rows) ? rows : [rows]),
            }),
          },
          { events: {} },
        );
        await gate;
        batches.push(values.rows.length);
      },
    } as unknown as DataStore;
    return {
      store,
      batches,
      open() {
        release();
        gate = Promise.resolve();
      },
    };
  }

  test("one batch at a time; what waits meanwhile stays bounded, the oldest dropped and reported", async () => {
    const slow = slowStore();
    let dropped = 0;
    const sink = new BatchedEventSink(slow.store, { maxRows: 10, onDropped: (count) => (dropped += count) });
    const total = 10 + EVENT_BUFFER_MAX_WAITING + 500;
    for (let n = 0; n < total; n++) sink.record(event(1, n));
    // The first 10 are on their way; of the rest, only EVENT_BUFFER_MAX_WAITING wait.
    expect(dropped).toBe(500);
    slow.open();
    await sink.flush();
    await sink.flush();
    expect(slow.batches[0]).toBe(10);
    expect(slow.batches.reduce((a, b) => a + b, 0)).toBe(10 + EVENT_BUFFER_MAX_WAITING);
  });

  test("a database that does not answer loses the batch at once, without trying row by row", async () => {
    let calls = 0;
    const dropped: number[] = [];
    const away = {
      dialect: "postgres",
      async run() {
        calls++;
        throw new StoreUnavailableError("postgres", new Error("Connection closed"));
      },
    } as unknown as DataStore;
    const sink = new BatchedEventSink(away, { maxRows: 100, onDropped: (count) => dropped.push(count) });
    for (let n = 0; n < 5; n++) sink.record(event(1, n));
    await sink.flush();
    expect(calls).toBe(1);
    expect(dropped).toEqual([5]);
  });
});
