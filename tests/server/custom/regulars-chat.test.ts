/**
 * Nightbot's `!regulars add|delete <login>` in native chat (issue 24), through the EventSub and Helix
 * simulators: what moderators and the broadcaster see, what is stored, what trolls cannot do.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { CHAT_BOT_LIMITS } from "../../../db/chat-bot-rules.ts";
import { addRegular, listRegulars } from "../../../db/regulars.ts";
import { REPLIES } from "../../../server/custom/changes.ts";
import { parseRegularLine, REGULAR_REPLIES } from "../../../server/custom/regular-lines.ts";
import { SIM_IDS } from "../../../server/sim/twitch/world.ts";
import type { ChatHarness } from "../../helpers/chat.ts";
import { badge, chatLines, startConnectedChat } from "../../helpers/custom-chat.ts";
import { expectNoEcho, TROLL_TEXTS } from "../../helpers/troll-texts.ts";

let h: ChatHarness;
afterEach(async () => {
  await h.stop();
});

async function start(): Promise<void> {
  h = await startConnectedChat();
}

const { say, ask, mod, expectSilent } = chatLines(() => h);
const stored = async () => (await listRegulars(h.ctx.db, h.account.id)).map((r) => [r.twitchUserId, r.login]);

describe("!regulars in native chat", () => {
  test("a moderator adds and removes a regular by login; the regular level follows at once", async () => {
    await start();
    expect(await mod("!addcom -ul=regular !regonly Hello regular")).toBe(REPLIES.added("regonly"));
    const before = say("!regonly", "viewer_anna");
    await expectSilent(before);
    expect(await mod("!regulars add @Viewer_Anna")).toBe(REGULAR_REPLIES.added("viewer_anna"));
    expect(await stored()).toEqual([[SIM_IDS.anna, "viewer_anna"]]);
    expect(await ask("!regonly", "viewer_anna")).toBe("Hello regular");
    expect(await mod("!REGULARS ADD viewer_anna")).toBe(REGULAR_REPLIES.already("viewer_anna"));
    expect(await mod("!regulars delete viewer_anna")).toBe(REGULAR_REPLIES.removed("viewer_anna"));
    expect(await stored()).toEqual([]);
    const after = say("!regonly", "viewer_anna");
    await expectSilent(after);
    expect(await mod("!regulars remove viewer_anna")).toBe(REGULAR_REPLIES.notListed("viewer_anna"));
    expect(await mod("!regulars add nobody_on_twitch_x")).toBe(
      REGULAR_REPLIES.noSuchUser("nobody_on_twitch_x"),
    );
    expect(await stored()).toEqual([]);
  });

  test("a regular who renamed since they were added is removed by their new login", async () => {
    await start();
    await addRegular(
      h.ctx.db,
      h.account.id,
      { twitchUserId: SIM_IDS.anna, login: "anna_before" },
      Date.now(),
    );
    await addRegular(h.ctx.db, h.account.id, { twitchUserId: "900001", login: "gone_user" }, Date.now());
    h.ctx.chatBot.clear();
    // Stored as anna_before; Twitch knows the same user id as viewer_anna now.
    expect(await mod("!regulars delete viewer_anna")).toBe(REGULAR_REPLIES.removed("viewer_anna"));
    expect(await stored()).toEqual([["900001", "gone_user"]]);
    // A login Twitch no longer knows is still removed as stored; one on no list is said so.
    expect(await mod("!regulars delete gone_user")).toBe(REGULAR_REPLIES.removed("gone_user"));
    expect(await mod("!regulars delete viewer_anna")).toBe(REGULAR_REPLIES.notListed("viewer_anna"));
    expect(await mod("!regulars delete nobody_on_twitch_x")).toBe(
      REGULAR_REPLIES.notListed("nobody_on_twitch_x"),
    );
    expect(await stored()).toEqual([]);
  });

  test("the broadcaster manages the list too; bad lines get one usage line and change nothing", async () => {
    await start();
    const broadcaster = (text: string) => ask(text, "cuebotdemo", badge("broadcaster"));
    expect(await broadcaster("!regulars add modbob")).toBe(REGULAR_REPLIES.added("modbob"));
    expect(await broadcaster("!regulars remove modbob")).toBe(REGULAR_REPLIES.removed("modbob"));
    expect(await mod("!regulars")).toBe(REGULAR_REPLIES.usage());
    expect(await mod("!regulars list")).toBe(REGULAR_REPLIES.usage());
    expect(await mod("!regulars constructor viewer_anna")).toBe(REGULAR_REPLIES.usage());
    expect(await mod("!regulars __proto__ viewer_anna")).toBe(REGULAR_REPLIES.usage());
    expect(await mod("!regulars add")).toBe(REGULAR_REPLIES.notLogin());
    expect(await mod("!regulars add viewer_anna modbob")).toBe(REGULAR_REPLIES.notLogin());
    // The name is Nightbot's default command's: chat cannot make it a custom command.
    expect(await mod("!addcom !regulars hi")).toBe(REPLIES.reserved("regulars"));
    expect(await stored()).toEqual([]);
  });

  test("a viewer's or a VIP's !regulars changes nothing and gets no reply", async () => {
    await start();
    const viewer = say("!regulars add viewer_anna", "viewer_anna");
    const vip = say("!regulars add vipcarla", "vipcarla", badge("vip"));
    const sub = say("!regulars add subdave", "subdave", badge("subscriber"));
    const bare = say("!regulars", "viewer_bob");
    await expectSilent(viewer, vip, sub, bare);
    expect(await stored()).toEqual([]);
  });

  test("links, sentences and odd Unicode as the name get a fixed sentence, never echoed", async () => {
    await start();
    for (const troll of TROLL_TEXTS) {
      const reply = await mod(`!regulars add ${troll}`);
      expect(reply).toBe(REGULAR_REPLIES.notLogin());
      expectNoEcho(reply ?? "");
      expect(await mod(`!regulars delete ${troll}`)).toBe(REGULAR_REPLIES.notLogin());
    }
    expect(await mod(`!regulars add ${"a".repeat(26)}`)).toBe(REGULAR_REPLIES.notLogin());
    expect(await mod(`!regulars add ${"x".repeat(5000)}`)).toBe(REGULAR_REPLIES.notLogin());
    expect(await stored()).toEqual([]);
  });

  test("a full list is said in one line and keeps its size", async () => {
    await start();
    for (let i = 0; i < CHAT_BOT_LIMITS.regularsPerAccount; i++)
      await addRegular(
        h.ctx.db,
        h.account.id,
        { twitchUserId: String(900_000 + i), login: `r${i}` },
        Date.now(),
      );
    h.ctx.chatBot.clear();
    expect(await mod("!regulars add viewer_anna")).toBe(REGULAR_REPLIES.full());
    expect(await listRegulars(h.ctx.db, h.account.id)).toHaveLength(CHAT_BOT_LIMITS.regularsPerAccount);
  }, 30_000);
});

describe("parseRegularLine", () => {
  test("reads Nightbot's forms and nothing else", () => {
    expect(parseRegularLine("regulars", "add @Anna_1")).toEqual({ kind: "add", login: "anna_1" });
    expect(parseRegularLine("regulars", "DELETE anna")).toEqual({ kind: "remove", login: "anna" });
    expect(parseRegularLine("regulars", "remove anna")).toEqual({ kind: "remove", login: "anna" });
    expect(parseRegularLine("regular", "add anna")).toBeNull();
    expect(parseRegularLine("regulars", "toString anna")).toEqual({
      kind: "usage",
      reply: REGULAR_REPLIES.usage(),
    });
  });
});
