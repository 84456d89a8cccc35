/**
 * Custom commands, counters and quotes in native chat (issue 24), through the EventSub simulator:
 * what moderators and viewers see in chat, and what is stored.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { storeChatBot } from "../../../db/chat.ts";
import {
  addCustomCommand,
  editCustomCommand,
  getCustomCommand,
  listCustomCommands,
} from "../../../db/custom-commands.ts";
import { listQuotes } from "../../../db/quotes.ts";
import { addRegular } from "../../../db/regulars.ts";
import { updateCommandSettings } from "../../../server/bot/settings.ts";
import { REPLIES } from "../../../server/custom/changes.ts";
import { USAGE } from "../../../server/custom/management.ts";
import { NAME_RULE } from "../../../server/custom/names.ts";
import type { Context } from "../../../server/runtime.ts";
import { SIM_IDS } from "../../../server/sim/twitch/world.ts";
import { type ChatHarness, startChatHarness, startServerOnSameData, waitFor } from "../../helpers/chat.ts";
import { badge, chatLines, startConnectedChat, waitUntilReading } from "../../helpers/custom-chat.ts";
import { expectNoEcho, TROLL_TEXTS } from "../../helpers/troll-texts.ts";

let h: ChatHarness;
let second: Context | null = null;
afterEach(async () => {
  await second?.close();
  second = null;
  await h.stop();
});

async function start(): Promise<void> {
  h = await startConnectedChat();
}

const { say, ask, mod, expectSilent } = chatLines(() => h);

describe("custom commands in native chat", () => {
  test("a moderator adds !discord, a viewer's !discord answers; edit and delete in every form", async () => {
    await start();
    expect(await mod("!commands add !discord Join us at discord.gg/x")).toBe(REPLIES.added("discord"));
    expect(await ask("!discord")).toBe("Join us at discord.gg/x");
    // Added from chat with Nightbot's default 30 s cooldown: moderators are not held to it.
    expect(await mod("!DISCORD please")).toBe("Join us at discord.gg/x");
    expect(await mod("!editcom !discord Our Discord: discord.gg/y")).toBe(REPLIES.edited("discord"));
    expect(await mod("!commands edit !discord -ul=moderator")).toBe(REPLIES.edited("discord"));
    expect(await mod("!discord")).toBe("Our Discord: discord.gg/y");
    expect(await mod("!addcom !lurk $(user) is lurking")).toBe(REPLIES.added("lurk"));
    expect(await ask("!lurk", "viewer_carla")).toBe("viewer_carla is lurking");
    expect(await mod("!delcom !lurk")).toBe(REPLIES.deleted("lurk"));
    expect(await mod("!commands delete !discord")).toBe(REPLIES.deleted("discord"));
    expect(await mod("!commands delete !discord")).toBe(REPLIES.notFound("discord"));
    expect(await listCustomCommands(h.ctx.db, h.account.id)).toEqual([]);
    const gone = say("!lurk", "viewer_dave");
    await expectSilent(gone);
  });

  test("the broadcaster manages commands and quotes too (with a separate bot account speaking)", async () => {
    h = await startChatHarness();
    const scopes = ["user:read:chat", "user:write:chat", "user:read:moderated_channels"];
    const issued = h.sim.issueUserToken("modbob", scopes);
    const bot = { twitchUserId: SIM_IDS.bob, login: "modbob", displayName: "ModBob", ...issued, scopes };
    await storeChatBot(
      h.ctx.db,
      h.ctx.secrets,
      h.account.id,
      { ...bot, expiresAt: Date.now() + 3_600_000, needsReauth: false },
      Date.now(),
    );
    await h.startChat({ scopes: ["user:read:email"] });
    await waitUntilReading(h);
    expect(await ask("!addcom !socials twitter.com/cuebot", "cuebotdemo")).toBe(REPLIES.added("socials"));
    expect(await ask("!addquote Chat is always right", "cuebotdemo")).toBe("Quote #1 has been added.");
    expect(await ask("!socials", "viewer_bob")).toBe("twitter.com/cuebot");
  });

  test("anyone else's management lines change nothing and get no reply", async () => {
    await start();
    const lines = [
      say("!addcom !discord evil.example"),
      say("!commands add !discord evil.example", "viewer_bob", badge("vip")),
      say("!commands add !sub hi", "viewer_carla", badge("subscriber")),
      say("!commands", "viewer_dave"),
      say("!addquote free subs at evil example", "viewer_eve"),
    ];
    await expectSilent(...lines);
    expect(await listCustomCommands(h.ctx.db, h.account.id)).toEqual([]);
    expect((await listQuotes(h.ctx.db, h.account.id)).items).toEqual([]);
  });

  test("built-in commands keep priority: their names and aliases are refused, and at answer time a built-in wins", async () => {
    await start();
    expect(await mod("!commands add !dice no dice")).toBe(REPLIES.builtIn("dice"));
    expect(await mod("!addcom !so hello")).toBe(REPLIES.builtIn("so"));
    expect(await mod("!addcom !quote hello")).toBe(REPLIES.reserved("quote"));
    expect(await mod("!addcom !regulars hello")).toBe(REPLIES.reserved("regulars"));
    expect(await mod("!addcom !commands hello")).toBe(REPLIES.reserved("commands"));
    // Stored while the built-in was off (or from an import): the built-in answers once it is on.
    await addCustomCommand(h.ctx.db, h.account.id, { name: "coinflip", response: "custom flip" }, Date.now());
    h.ctx.chatBot.clear();
    expect(await ask("!coinflip")).toMatch(/flipped (Heads|Tails)/);
    await updateCommandSettings(h.ctx, h.account.id, "coinflip", { enabled: false });
    expect(await ask("!coinflip", "viewer_bob")).toBe("custom flip");
  });

  test("user levels: a subscriber-only command refuses a plain viewer and answers a subscriber or founder; a regular's", async () => {
    await start();
    expect(await mod("!addcom -ul=subscriber !subonly Thanks for subscribing")).toBe(
      REPLIES.added("subonly"),
    );
    expect(await mod("!addcom -ul=regular !regonly Hello regular")).toBe(REPLIES.added("regonly"));
    await addRegular(
      h.ctx.db,
      h.account.id,
      { twitchUserId: SIM_IDS.anna, login: "viewer_anna" },
      Date.now(),
    );
    h.ctx.chatBot.clear(); // as the dashboard's routes do after a write
    const viewer = say("!subonly", "viewer_zed");
    const viewerRegular = say("!regonly", "viewer_carla", badge("subscriber"));
    await expectSilent(viewer, viewerRegular);
    expect(await ask("!subonly", "viewer_dave", badge("subscriber"))).toBe("Thanks for subscribing");
    // No cooldown (the dashboard may set 0), so a second subscriber is answered at once.
    await editCustomCommand(h.ctx.db, h.account.id, "subonly", { cooldownSeconds: 0 }, Date.now());
    h.ctx.chatBot.clear();
    expect(await ask("!subonly", "viewer_fay", badge("founder"))).toBe("Thanks for subscribing");
    expect(await ask("!regonly", "viewer_anna")).toBe("Hello regular");
    expect(await mod("!regonly")).toBe("Hello regular");
  });

  test("the cooldown holds for the whole channel; moderators are not held to it", async () => {
    await start();
    expect(await mod("!addcom -cd=5 !hype Hype!")).toBe(REPLIES.added("hype"));
    expect(await ask("!hype")).toBe("Hype!");
    const cooling = say("!hype", "viewer_bob");
    await expectSilent(cooling);
    expect(await mod("!hype")).toBe("Hype!");
  });

  test("chat budgets hold for the chat bot too: a viewer's fourth answer within 30 s is not sent", async () => {
    await start();
    for (const name of ["a", "b", "c", "d"])
      expect(await mod(`!addcom !${name} ${name}!`)).toBe(REPLIES.added(name));
    for (const name of ["a", "b", "c"]) expect(await ask(`!${name}`)).toBe(`${name}!`);
    const fourth = say("!d");
    await expectSilent(fourth);
    // The refused line kept no cooldown: another viewer is answered at once.
    expect(await ask("!d", "viewer_bob")).toBe("d!");
  });

  test("!quote holds viewers to a 5 s cooldown for the whole channel; moderators are not held to it", async () => {
    await start();
    const none = "There are no quotes yet; moderators add one with !addquote.";
    expect(await ask("!quote")).toBe(none);
    const flood = ["!quote", "!quote 1", "!quote words"].map((text) => say(text, "viewer_bob"));
    await expectSilent(...flood);
    expect(await mod("!quote")).toBe(none);
    expect(await ask("!quote", "viewer_carla", badge("broadcaster"))).toBe(none);
    await Bun.sleep(5100);
    expect(await ask("!quote", "viewer_bob")).toBe(none);
  }, 15_000);

  test("$(count) counts each answer, moderators adjust it, and it survives a restart", async () => {
    await start();
    expect(await mod("!addcom !deaths Deaths: $(count)")).toBe(REPLIES.added("deaths"));
    expect(await mod("!addcom !plain no count here")).toBe(REPLIES.added("plain"));
    expect(await mod("!deaths")).toBe("Deaths: 1");
    expect(await mod("!deaths")).toBe("Deaths: 2");
    expect(await mod("!deaths +")).toBe("The count of !deaths is now 3.");
    expect(await mod("!deaths +5")).toBe("The count of !deaths is now 8.");
    expect(await mod("!deaths -")).toBe("The count of !deaths is now 7.");
    expect(await mod("!deaths = 12")).toBe("The count of !deaths is now 12.");
    expect(await mod("!deaths = twelve")).toMatch(/^Usage: !deaths \+ \| - /);
    expect(await mod("!deaths +999999")).toMatch(/^Usage: !deaths/);
    // A viewer's "+" is a use like any other: the count goes up by one, and "+" is only their words.
    expect(await ask("!deaths +")).toBe("Deaths: 13");
    expect(await mod("!plain")).toBe("no count here");
    expect((await getCustomCommand(h.ctx.db, h.account.id, "plain"))?.count).toBe(0);

    await h.ctx.close();
    second = await startServerOnSameData(h);
    const ctx = second;
    await waitFor(async () => (await ctx.chat.status(h.account.id)).state === "connected");
    expect(await mod("!deaths")).toBe("Deaths: 14");
  });

  test("a trigger with a look-alike of its name (the Kelvin sign for k) neither answers nor adjusts a count", async () => {
    await start();
    expect(await mod("!addcom !kick Kicked: $(count)")).toBe(REPLIES.added("kick"));
    const lookalikes = ["!\u212Aick", "!\u212AICK +", "!\u212Aick = 50", "!\uFF4B\uFF49\uFF43\uFF4B"];
    await expectSilent(...lookalikes.map((text) => say(text, "mod_mia", badge("moderator"))));
    expect((await getCustomCommand(h.ctx.db, h.account.id, "kick"))?.count).toBe(0);
    expect(await ask("!KICK")).toBe("Kicked: 1");
  });

  test("counter forms (+, -, = n) adjust only a counter: elsewhere they are words, for an alias too", async () => {
    await start();
    expect(await mod("!addcom !hug $(user) hugs $(query)")).toBe(REPLIES.added("hug"));
    expect(await mod("!addcom !deaths Deaths: $(count)")).toBe(REPLIES.added("deaths"));
    expect(await mod("!addcom !d -a=!deaths")).toBe(REPLIES.added("d"));
    expect(await mod("!hug -2")).toBe("mod_mia hugs -2");
    expect(await mod("!hug = 5")).toBe("mod_mia hugs = 5");
    expect((await getCustomCommand(h.ctx.db, h.account.id, "hug"))?.count).toBe(0);
    // The alias's own count never changes: it passes the words on to !deaths, run as the same chatter.
    expect(await mod("!d +5")).toBe("The count of !deaths is now 5.");
    expect(await ask("!d +5")).toBe("Deaths: 6");
    expect((await getCustomCommand(h.ctx.db, h.account.id, "d"))?.count).toBe(0);
  });

  test("a count at the column's maximum stays there, and the command still answers with it", async () => {
    await start();
    const max = 2_147_483_647;
    expect(await mod("!addcom !deaths Deaths: $(count)")).toBe(REPLIES.added("deaths"));
    await editCustomCommand(h.ctx.db, h.account.id, "deaths", { count: max }, Date.now());
    expect(await ask("!deaths")).toBe(`Deaths: ${max}`);
    expect(await mod("!deaths")).toBe(`Deaths: ${max}`);
    expect((await getCustomCommand(h.ctx.db, h.account.id, "deaths"))?.count).toBe(max);
  });

  test("quotes: add (with the game being played), read by number, search, random, delete", async () => {
    await start();
    expect(await mod("!quote")).toBe("There are no quotes yet; moderators add one with !addquote.");
    expect(await mod("!addquote Never gonna give you up")).toBe("Quote #1 has been added.");
    expect(await mod("!addquote I am not a cat")).toBe("Quote #2 has been added.");
    const day = new Intl.DateTimeFormat("en-GB", {
      day: "numeric",
      month: "short",
      year: "numeric",
      timeZone: "UTC",
    }).format(Date.now());
    expect(await ask("!quote 1")).toBe(`Quote #1: "Never gonna give you up" (Just Chatting, ${day})`);
    // Viewers share !quote's 5 s cooldown; moderators are not held to it.
    expect(await mod("!quote #2")).toBe(`Quote #2: "I am not a cat" (Just Chatting, ${day})`);
    expect(await mod("!quote CAT")).toBe(`Quote #2: "I am not a cat" (Just Chatting, ${day})`);
    expect(await mod("!quote https://evil.example/free-subs")).toBe("No quote holds those words.");
    expect(await mod("!quote")).toMatch(/^Quote #[12]: /);
    expect(await mod("!delquote 1")).toBe("Quote #1 has been deleted.");
    expect(await mod("!quote 1")).toBe("Quote #1 does not exist.");
    expect(await mod("!delquote 1")).toBe("Quote #1 does not exist.");
    expect(await mod("!delquote one")).toBe("Usage: !delquote number");
    expect(await mod("!addquote")).toBe("Usage: !addquote text of the quote");
    expect(await mod("!addquote third")).toBe("Quote #3 has been added.");
    const stored = (await listQuotes(h.ctx.db, h.account.id)).items;
    expect(stored.map((q) => [q.number, q.text, q.game])).toEqual([
      [2, "I am not a cat", "Just Chatting"],
      [3, "third", "Just Chatting"],
    ]);
  });

  test("malformed !commands lines get a usage reply and change nothing", async () => {
    await start();
    expect(await mod("!commands add")).toBe(USAGE.add);
    expect(await mod("!commands frobnicate !x hi")).toBe(USAGE.any);
    expect(await mod("!commands add !nothing")).toBe(`A new command needs a response. ${USAGE.add}`);
    expect(await mod("!commands add !x -cd=2 hi")).toMatch(/^A cooldown is a whole number of seconds/);
    expect(await mod("!commands add !x -ul=king hi")).toMatch(/^A user level is one of/);
    expect(await mod("!commands edit !x")).toBe(USAGE.edit);
    expect(await mod("!commands delete !x extra words")).toBe(USAGE.delete);
    expect(await mod("!commands edit !ghost hi")).toBe(REPLIES.notFound("ghost"));
    for (const troll of TROLL_TEXTS.slice(0, 4)) {
      const reply = await mod(`!commands add ${troll} hi`);
      expect(reply).toBe(`${NAME_RULE} ${USAGE.add}`);
      expectNoEcho(reply ?? "");
    }
    expect(await listCustomCommands(h.ctx.db, h.account.id)).toEqual([]);
  });

  test("trolls: chatter text is never re-expanded nor leads a reply; links and odd Unicode as arguments", async () => {
    await start();
    expect(await mod("!addcom !echo You said: $(query)")).toBe(REPLIES.added("echo"));
    expect(await mod("!addcom !say $(query)")).toBe(REPLIES.added("say"));
    expect(await mod("!addcom !discord Join us at discord.gg/x")).toBe(REPLIES.added("discord"));
    expect(await mod("!addcom !hug $(user) hugs $(touser)")).toBe(REPLIES.added("hug"));
    expect(await mod("!echo $(count) $(user) $(urlfetch https://evil.example)")).toBe(
      "You said: $(count) $(user) $(urlfetch https://evil.example)",
    );
    expect(await mod("!say /ban viewer_anna")).toBe("ban viewer_anna");
    expect(await mod("!say .timeout viewer_anna")).toBe("timeout viewer_anna");
    expect((await getCustomCommand(h.ctx.db, h.account.id, "echo"))?.count).toBe(0);
    // Floods: a 10,000-character line is answered as any other, a 10,000-character response refused.
    expect(await mod(`!discord ${"x".repeat(10_000)}`)).toBe("Join us at discord.gg/x");
    expect((await mod(`!echo ${"y".repeat(10_000)}`))?.length).toBeLessThanOrEqual(500);
    expect(await mod(`!addcom !long ${"z".repeat(10_000)}`)).toBe("A response is at most 500 characters.");
    expect(await getCustomCommand(h.ctx.db, h.account.id, "long")).toBeUndefined();
    for (const troll of TROLL_TEXTS) {
      expect(await mod(`!discord ${troll}`)).toBe("Join us at discord.gg/x");
      // $(touser) takes a first word only when it is login-shaped ("free" of "free subs …" is one).
      if (/^[A-Za-z0-9_]+(\s|$)/u.test(troll)) continue;
      const hug = await mod(`!hug ${troll}`);
      expect(hug).toBe("mod_mia hugs mod_mia");
      expectNoEcho(hug ?? "");
    }
  });
});
