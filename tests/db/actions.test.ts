import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { deleteAccountRow } from "../../db/accounts.ts";
import type { Action, ActionInput, ActionRun } from "../../server/actions/model.ts";
import {
  createAction,
  deleteAction,
  listActionRuns,
  listActions,
  readAction,
  recordActionRun,
  replaceAction,
} from "../../server/actions/store.ts";
import { ACTION_LIMITS } from "../../server/vocabulary.ts";
import { type CacheWatch, watchCache } from "./cache-watch.ts";
import { engine, engineMissing, openStoreUnderTest, type StoreUnderTest } from "./store-under-test.ts";

const AT = Date.UTC(2026, 11, 6, 20, 0, 0, 0);

const RAID: ActionInput = {
  name: "Raid scene",
  enabled: true,
  cooldownSeconds: 30,
  trigger: { type: "alert", kind: "raid", min: 5, reward: null },
  steps: [
    { type: "obs.scene", scene: "Raid 🎉" },
    { type: "obs.source", scene: "Raid 🎉", source: "Confetti", visible: true, seconds: 5 },
    { type: "obs.text", source: "Raider", text: "Welcome {user} and {amount} raiders!" },
    { type: "chat", text: "Thank you for the raid, {user}!" },
    { type: "wait", seconds: 2.5 },
  ],
};

const BRB: ActionInput = {
  name: "BRB",
  enabled: false,
  cooldownSeconds: 0,
  trigger: { type: "command", command: "brb", level: "moderator" },
  steps: [{ type: "obs.media", source: "Intro", action: "restart" }],
};

/** The action made, or the test fails here. */
async function made(action: Promise<Action | null>): Promise<Action> {
  const made = await action;
  if (!made) throw new Error("the action was not created");
  return made;
}

function run(actionId: number, at: number, ok = true): ActionRun {
  return {
    actionId,
    at,
    ok,
    cause: "button",
    user: "Streamer",
    steps: ok
      ? [{ type: "obs.scene", ok: true, error: null }]
      : [
          { type: "obs.scene", ok: true, error: null },
          { type: "obs.text", ok: false, error: 'OBS has no source "Raider".' },
        ],
  };
}

describe.skipIf(engineMissing)(`actions (${engine})`, () => {
  let db: StoreUnderTest;
  let watch: CacheWatch;
  beforeAll(async () => {
    db = await openStoreUnderTest();
    watch = await watchCache(db.location);
  }, 30_000);
  // A PostgreSQL database made and dropped passed bun's 5 s for hooks under load (2 of 5 runs).
  afterAll(async () => {
    await watch?.close();
    await db?.close();
  }, 30_000);

  test("created, listed in the order added, read by id, replaced whole and deleted, per account", async () => {
    const account = await db.account();
    const other = await db.account();
    const raid = await made(createAction(db.store, account, RAID, AT));
    expect(raid).toEqual({ ...RAID, id: raid.id, lastRun: null });
    const brb = await made(createAction(db.store, account, BRB, AT + 1));
    expect(await listActions(db.store, account)).toEqual([raid, brb]);
    expect(await listActions(db.store, other)).toEqual([]);
    const id = raid.id;
    expect(await readAction(db.store, account, id)).toEqual(raid);
    expect(await readAction(db.store, other, id)).toBeNull();
    for (const bad of [0, -1, 1.5, Number.NaN, 2 ** 31])
      expect(await readAction(db.store, account, bad)).toBeNull();

    const replaced = await replaceAction(db.store, account, id, BRB, AT + 2);
    expect(replaced).toEqual({ ...BRB, id, lastRun: null });
    expect(await replaceAction(db.store, other, id, RAID, AT)).toBeNull();
    expect(await readAction(db.store, account, id)).toEqual(replaced);

    expect(await deleteAction(db.store, other, id)).toBe(false);
    expect(await deleteAction(db.store, account, id)).toBe(true);
    expect(await deleteAction(db.store, account, id)).toBe(false);
    expect(await listActions(db.store, account)).toEqual([brb]);
  });

  test("a run sets lastRun (the failed step's error) and the run log keeps the newest 50, newest first", async () => {
    const account = await db.account();
    const action = await createAction(db.store, account, RAID, AT);
    const id = action?.id ?? 0;
    expect(await recordActionRun(db.store, account, run(id, AT + 1, false))).toBe(true);
    expect((await readAction(db.store, account, id))?.lastRun).toEqual({
      at: AT + 1,
      ok: false,
      error: 'OBS has no source "Raider".',
    });
    for (let i = 2; i <= 60; i++) await recordActionRun(db.store, account, run(id, AT + i));
    expect((await readAction(db.store, account, id))?.lastRun).toEqual({
      at: AT + 60,
      ok: true,
      error: null,
    });
    const runs = await listActionRuns(db.store, account, id);
    expect(runs).toHaveLength(ACTION_LIMITS.runsKept);
    expect(runs[0]).toEqual(run(id, AT + 60));
    expect(runs.at(-1)?.at).toBe(AT + 11);
    expect(await listActionRuns(db.store, account, id, 3)).toEqual(runs.slice(0, 3));
    // Another account's action is not this account's to record or read.
    const other = await db.account();
    expect(await recordActionRun(db.store, other, run(id, AT + 61))).toBe(false);
    expect(await listActionRuns(db.store, other, id)).toEqual([]);
    // Replacing the action keeps its last run and log; deleting it drops them.
    await replaceAction(db.store, account, id, BRB, AT + 70);
    expect((await readAction(db.store, account, id))?.lastRun?.at).toBe(AT + 60);
    await deleteAction(db.store, account, id);
    expect(await listActionRuns(db.store, account, id)).toEqual([]);
    expect(await recordActionRun(db.store, account, run(id, AT + 80))).toBe(false);
  });

  test(`an account keeps at most ${ACTION_LIMITS.perAccount} actions`, async () => {
    const account = await db.account();
    await db.store.transaction(async (tx) => {
      for (let i = 0; i < ACTION_LIMITS.perAccount; i++)
        await createAction(tx, account, { ...BRB, name: `a${i}` }, AT);
    });
    expect(await createAction(db.store, account, BRB, AT)).toBeNull();
    expect(await listActions(db.store, account)).toHaveLength(ACTION_LIMITS.perAccount);
    expect(await createAction(db.store, await db.account(), BRB, AT)).not.toBeNull();
  });

  test("deleting the account deletes its actions and their runs", async () => {
    const account = await db.account();
    const action = await createAction(db.store, account, RAID, AT);
    await recordActionRun(db.store, account, run(action?.id ?? 0, AT));
    await deleteAccountRow(db.store, account);
    expect(await listActions(db.store, account)).toEqual([]);
    expect(await listActionRuns(db.store, account, action?.id ?? 0)).toEqual([]);
    const left = await db.store.all((d, t) => d.select().from(t.actionRuns));
    expect(left.filter((r) => r.accountId === account)).toEqual([]);
  });

  test("what triggers read tells the servers when it changes; a run does not", async () => {
    const account = await db.account();
    let id = 0;
    expect(
      await watch.flushes(async () => {
        id = (await createAction(db.store, account, RAID, AT))?.id ?? 0;
      }),
    ).toBe(true);
    expect(await watch.flushes(() => replaceAction(db.store, account, id, BRB, AT))).toBe(true);
    // The same action again changes nothing a server holds.
    expect(await watch.flushes(() => replaceAction(db.store, account, id, BRB, AT + 1))).toBe(false);
    expect(await watch.flushes(() => recordActionRun(db.store, account, run(id, AT)))).toBe(false);
    expect(await watch.flushes(() => deleteAction(db.store, account, id))).toBe(true);
  });
});
