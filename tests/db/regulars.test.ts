import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { addRegular, isRegular, listRegulars, removeRegular } from "../../db/regulars.ts";
import { TROLL_TEXTS } from "../helpers/troll-texts.ts";
import { refusal } from "./refusal.ts";
import { engine, engineMissing, openStoreUnderTest, type StoreUnderTest } from "./store-under-test.ts";

const AT = Date.UTC(2026, 10, 26, 22, 0, 0, 789);

describe.skipIf(engineMissing)(`regulars (${engine})`, () => {
  let db: StoreUnderTest;
  beforeAll(async () => {
    db = await openStoreUnderTest();
  });
  afterAll(() => db?.close());

  test("added by id and login (@ and case as typed), listed by login, asked by id", async () => {
    const account = await db.account();
    const other = await db.account();
    expect(await addRegular(db.store, account, { twitchUserId: "222", login: "@Zed_Fan" }, AT)).toBe(true);
    expect(await addRegular(db.store, account, { twitchUserId: "111", login: "alice" }, AT + 1)).toBe(true);
    expect(await listRegulars(db.store, account)).toEqual([
      { twitchUserId: "111", login: "alice", createdAt: AT + 1 },
      { twitchUserId: "222", login: "zed_fan", createdAt: AT },
    ]);
    expect(await isRegular(db.store, account, "222")).toBe(true);
    expect(await isRegular(db.store, account, "333")).toBe(false);
    expect(await isRegular(db.store, other, "222")).toBe(false);
    expect(await listRegulars(db.store, other)).toEqual([]);
  });

  test("adding one already listed keeps their place and takes their new login", async () => {
    const account = await db.account();
    await addRegular(db.store, account, { twitchUserId: "5", login: "oldname" }, AT);
    expect(await addRegular(db.store, account, { twitchUserId: "5", login: "NewName" }, AT + 50)).toBe(false);
    expect(await listRegulars(db.store, account)).toEqual([
      { twitchUserId: "5", login: "newname", createdAt: AT },
    ]);
  });

  test("removed by id or by login (as typed); what was removed is answered", async () => {
    const account = await db.account();
    await addRegular(db.store, account, { twitchUserId: "1", login: "alice" }, AT);
    await addRegular(db.store, account, { twitchUserId: "2", login: "bob" }, AT);
    expect(await removeRegular(db.store, account, { login: "@ALICE" })).toEqual([
      { twitchUserId: "1", login: "alice", createdAt: AT },
    ]);
    expect(await removeRegular(db.store, account, { login: "alice" })).toEqual([]);
    expect(await removeRegular(db.store, account, { twitchUserId: "2" })).toHaveLength(1);
    expect(await removeRegular(db.store, account, { twitchUserId: "2" })).toEqual([]);
    expect(await isRegular(db.store, account, "2")).toBe(false);
    for (const login of TROLL_TEXTS) expect(await removeRegular(db.store, account, { login })).toEqual([]);
  });

  test("what cannot be a Twitch login or id is refused, nothing stored", async () => {
    const account = await db.account();
    for (const login of ["", "@", "a".repeat(26), "bad login", "émile", ...TROLL_TEXTS]) {
      const error = await refusal(() => addRegular(db.store, account, { twitchUserId: "1", login }, AT));
      expect([error.code, error.field, error.message]).toEqual([
        "invalid_input",
        "login",
        "A Twitch login is 1 to 25 letters, digits or underscores.",
      ]);
    }
    for (const twitchUserId of ["", "abc", "-1", "1".repeat(21), "12 34"]) {
      const error = await refusal(() => addRegular(db.store, account, { twitchUserId, login: "ok" }, AT));
      expect([error.field, error.message]).toEqual(["twitchUserId", "A Twitch user id is a number."]);
    }
    expect(await listRegulars(db.store, account)).toEqual([]);
  });

  test("at most 1,000 per account; someone already listed can still be renamed", async () => {
    const account = await db.account();
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      accountId: account,
      twitchUserId: String(i + 1),
      login: `viewer${i + 1}`,
      createdAt: AT,
    }));
    await db.store.run((d, t) => d.insert(t.regulars).values(rows));
    const error = await refusal(() =>
      addRegular(db.store, account, { twitchUserId: "5000", login: "late" }, AT),
    );
    expect([error.code, error.message]).toEqual([
      "limit_reached",
      "A channel has at most 1,000 regulars; delete one first.",
    ]);
    expect(await addRegular(db.store, account, { twitchUserId: "7", login: "renamed" }, AT)).toBe(false);
    expect(await isRegular(db.store, account, "5000")).toBe(false);
    expect((await listRegulars(db.store, account)).length).toBe(1000);
  });
});
