import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { deleteAccountRow } from "../../db/accounts.ts";
import { openDatabase } from "../../db/client.ts";
import { WriteBehindEventSink } from "../../db/event-sink.ts";
import type { CommandEvent } from "../../db/events.ts";
import { recentEvents } from "../../db/events.ts";
import { DATABASE_FILE } from "../../server/data-dir.ts";
import { createTestAccount, createTestContext, type TestContext } from "../helpers/context.ts";

let t: TestContext;
afterEach(() => t.cleanup());

const event = (accountId: number, n: number): CommandEvent => ({
  accountId,
  at: 1_700_000_000_000 + n,
  command: "dice",
  caller: `viewer${n}`,
  outcome: "ok",
  latencyMs: n,
});

describe("analytics events written behind", () => {
  test("buffered until flushed, then stored in order with every field", () => {
    t = createTestContext();
    const { account } = createTestAccount(t.ctx);
    const sink = new WriteBehindEventSink(t.ctx.database.sqlite, { maxRows: 100 });
    for (let n = 1; n <= 3; n++) sink.record(event(account.id, n));
    expect(recentEvents(t.ctx.db, account.id, 10)).toHaveLength(0);
    sink.flush();
    const rows = recentEvents(t.ctx.db, account.id, 10);
    expect(rows.map((r) => [r.at, r.command, r.caller, r.outcome, r.latencyMs])).toEqual(
      [3, 2, 1].map((n) => [1_700_000_000_000 + n, "dice", `viewer${n}`, "ok", n]),
    );
  });

  test("never more than maxRows behind: the row that fills the buffer writes it", () => {
    t = createTestContext();
    const { account } = createTestAccount(t.ctx);
    const sink = new WriteBehindEventSink(t.ctx.database.sqlite, { maxRows: 4 });
    for (let n = 1; n <= 9; n++) sink.record(event(account.id, n));
    expect(recentEvents(t.ctx.db, account.id, 20)).toHaveLength(8);
    sink.flush();
    expect(recentEvents(t.ctx.db, account.id, 20)).toHaveLength(9);
  });

  test("an event whose account was deleted meanwhile is dropped and reported; the others are kept", () => {
    t = createTestContext();
    const kept = createTestAccount(t.ctx).account;
    const gone = createTestAccount(t.ctx).account;
    const dropped: number[] = [];
    const sink = new WriteBehindEventSink(t.ctx.database.sqlite, {
      onDropped: (count) => dropped.push(count),
    });
    sink.record(event(kept.id, 1));
    sink.record(event(gone.id, 2));
    sink.record(event(kept.id, 3));
    deleteAccountRow(t.ctx.db, gone.id);
    sink.flush();
    expect(recentEvents(t.ctx.db, kept.id, 10).map((r) => r.caller)).toEqual(["viewer3", "viewer1"]);
    expect(dropped).toEqual([1]);
  });

  test("closing the context writes what is still buffered", () => {
    t = createTestContext();
    const { account } = createTestAccount(t.ctx);
    t.ctx.events.record(event(account.id, 1));
    const dataDir = t.dataDir;
    t.ctx.close();
    const reopened = openDatabase(join(dataDir, DATABASE_FILE));
    try {
      expect(recentEvents(reopened.db, account.id, 10)).toHaveLength(1);
    } finally {
      reopened.close();
    }
  });
});
