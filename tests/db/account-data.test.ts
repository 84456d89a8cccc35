import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readChatExport } from "../../db/account-data.ts";
import { deleteAccountRow } from "../../db/accounts.ts";
import { addCustomCommand, incrementCommandCount } from "../../db/custom-commands.ts";
import { addQuote } from "../../db/quotes.ts";
import { addRegular } from "../../db/regulars.ts";
import { addTimer, markTimerPosted } from "../../db/timers.ts";
import { engine, engineMissing, openStoreUnderTest, type StoreUnderTest } from "./store-under-test.ts";

const AT = Date.UTC(2026, 10, 26, 12, 0, 0, 0);
const ISO_AT = "2026-11-26T12:00:00.000Z";

describe.skipIf(engineMissing)(
  `an account's chat-bot data in its export and its deletion (${engine})`,
  () => {
    let db: StoreUnderTest;
    beforeAll(async () => {
      db = await openStoreUnderTest();
    });
    afterAll(() => db?.close());

    /** An account with one of everything. */
    async function seeded(): Promise<number> {
      const account = await db.account();
      await addCustomCommand(
        db.store,
        account,
        { name: "deaths", response: "$(count)", userLevel: "moderator", userCooldownSeconds: 60 },
        AT,
      );
      await incrementCommandCount(db.store, account, "deaths");
      await addRegular(db.store, account, { twitchUserId: "77", login: "Alice" }, AT);
      await addQuote(db.store, account, { text: "GG", game: "Chess" }, AT);
      const timer = await addTimer(
        db.store,
        account,
        { name: "socials", message: "follow", intervalMinutes: 15 },
        AT,
      );
      await markTimerPosted(db.store, account, timer.id, AT);
      return account;
    }

    test("the export's chat section holds the commands with their counts, regulars, quotes and timers", async () => {
      const account = await seeded();
      const other = await seeded();
      const chat = await readChatExport(db.store, account);
      expect(chat).toMatchObject({ enabled: false, state: "off", botAccount: null });
      expect(chat.customCommands).toEqual([
        {
          name: "deaths",
          response: "$(count)",
          userLevel: "moderator",
          cooldownSeconds: 0,
          userCooldownSeconds: 60,
          aliasTarget: null,
          count: 1,
          createdAt: ISO_AT,
          updatedAt: ISO_AT,
        },
      ]);
      expect(chat.regulars).toEqual([{ id: "77", login: "alice", createdAt: ISO_AT }]);
      expect(chat.quotes).toEqual([
        { number: 1, text: "GG", game: "Chess", createdAt: ISO_AT, updatedAt: ISO_AT },
      ]);
      expect(chat.timers).toEqual([
        {
          id: expect.any(Number),
          name: "socials",
          message: "follow",
          intervalMinutes: 15,
          minChatLines: 2,
          enabled: true,
          lastPostedAt: ISO_AT,
          createdAt: ISO_AT,
          updatedAt: ISO_AT,
        },
      ]);
      // The other account's rows are its own.
      expect((await readChatExport(db.store, other)).timers[0]!.id).not.toBe(chat.timers[0]!.id);
      const empty = await readChatExport(db.store, await db.account());
      expect([empty.customCommands, empty.regulars, empty.quotes, empty.timers]).toEqual([[], [], [], []]);
    });

    test("deleting the account deletes every row of it, the quote counter too; other accounts keep theirs", async () => {
      const account = await seeded();
      const other = await seeded();
      await deleteAccountRow(db.store, account);
      const rowsOf = async (id: number) => [
        (await db.store.all((d, t) => d.select().from(t.customCommands))).filter((r) => r.accountId === id)
          .length,
        (await db.store.all((d, t) => d.select().from(t.regulars))).filter((r) => r.accountId === id).length,
        (await db.store.all((d, t) => d.select().from(t.quotes))).filter((r) => r.accountId === id).length,
        (await db.store.all((d, t) => d.select().from(t.quoteCounters))).filter((r) => r.accountId === id)
          .length,
        (await db.store.all((d, t) => d.select().from(t.timers))).filter((r) => r.accountId === id).length,
      ];
      expect(await rowsOf(account)).toEqual([0, 0, 0, 0, 0]);
      expect(await rowsOf(other)).toEqual([1, 1, 1, 1, 1]);
    });
  },
);
