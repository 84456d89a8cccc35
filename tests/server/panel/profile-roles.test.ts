import { afterEach, expect, test } from "bun:test";
import { findAccountByLogin } from "../../../db/accounts.ts";
import { deleteAccount } from "../../../server/core/accounts.ts";
import { type BotHarness, startBotHarness } from "../../helpers/bot.ts";

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

const severalAccounts = async () =>
  ((await (await h.panel("/api/dashboard/profile")).json()) as { data: { several_accounts: boolean } }).data
    .several_accounts;

test("the profile says whether other streamers share the install: alone no, after a second first login yes, after its deletion no again", async () => {
  h = await startBotHarness();
  expect(await severalAccounts()).toBe(false);
  await h.login("viewer_anna");
  expect(await severalAccounts()).toBe(true);
  const anna = (await findAccountByLogin(h.ctx.db, "viewer_anna"))!;
  await deleteAccount(h.ctx, anna, "cli");
  expect(await severalAccounts()).toBe(false);
});

test("the count is kept between requests: a hundred profiles ask the database once", async () => {
  h = await startBotHarness();
  let counted = 0;
  const directory = h.ctx.accounts;
  const original = directory.accountCount.bind(directory);
  await severalAccounts();
  directory.accountCount = () => {
    const answer = original();
    if (answer instanceof Promise) counted++;
    return answer;
  };
  for (let i = 0; i < 100; i++) await severalAccounts();
  expect(counted).toBe(0);
});
