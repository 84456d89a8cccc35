/**
 * No line cuebot sends in chat leads with `/`, `.`, `!` or `\`, invisible characters before it or not,
 * whoever wrote its text (CONTRACT §6; issue 34): a response a moderator stored, a chatter's words
 * through `$(query)` and `$(1)`, cuebot's own sentences. Through native chat and the Twitch simulator.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { editCustomCommand } from "../../../db/custom-commands.ts";
import { REPLIES } from "../../../server/custom/changes.ts";
import { COUNT_REPLIES } from "../../../server/custom/count-lines.ts";
import type { ChatHarness } from "../../helpers/chat.ts";
import { chatLines, startConnectedChat } from "../../helpers/custom-chat.ts";
import {
  COMMAND_CHARACTERS,
  INVISIBLE_LEADS,
  leadsWithCommand,
  TROLL_TEXTS,
} from "../../helpers/troll-texts.ts";

let h: ChatHarness;
afterEach(async () => {
  await h.stop();
});

const { ask, mod, say, expectSilent } = chatLines(() => h);

/** Every line cuebot posted so far opens with something other than a command. */
function expectNoCommandLead(): void {
  const sent = h.sim.chat.sent().filter((s) => s.isSent);
  expect(sent.length).toBeGreaterThan(0);
  for (const { text } of sent) expect(leadsWithCommand(text)).toBe(false);
}

describe("a stored response that opens with a command character", () => {
  test("!addcom !esc !bot part, then a viewer's !esc: the line says 'bot part', no command", async () => {
    h = await startConnectedChat();
    expect(await mod("!addcom !esc !bot part")).toBe(REPLIES.added("esc"));
    expect(await ask("!esc", "viewer_anna")).toBe("bot part");
    expectNoCommandLead();
  });

  test("/, ., \\ and runs of them, with invisible characters before them or not", async () => {
    h = await startConnectedChat();
    const stored = [
      ["slash", "/ban viewer_bob", "ban viewer_bob"],
      ["dot", ".timeout viewer_bob 600", "timeout viewer_bob 600"],
      ["backslash", "\\part", "part"],
      ["run", "!/ .\\ !so evil", "so evil"],
      ["hidden", "\u200b\u2800\u3164!addcom !pwned hi", "addcom !pwned hi"],
      ["tagged", "\u{e0001}\u{e0041}\ufe0f/mod viewer_bob", "mod viewer_bob"],
    ];
    for (const [name, response] of stored) {
      expect(await mod(`!addcom !${name} ${response}`)).toBe(REPLIES.added(name ?? ""));
    }
    const viewers = ["viewer_anna", "viewer_bob", "viewer_carla", "viewer_dave", "viewer_eve", "viewer_fay"];
    for (const [i, [name, , said]] of stored.entries()) {
      expect(await ask(`!${name}`, viewers[i])).toBe(said ?? "");
    }
    expectNoCommandLead();
  });

  test("a response of nothing but command characters and invisibles answers nothing", async () => {
    h = await startConnectedChat();
    expect(await mod("!addcom !dots ...")).toBe(REPLIES.added("dots"));
    expect(await mod("!addcom !blank \u2800!\u200b/")).toBe(REPLIES.added("blank"));
    await expectSilent(say("!dots"), say("!blank", "viewer_bob"));
  });
});

describe("a chatter's words that open the line", () => {
  // Moderators are held to no cooldown; each line differs, so none is a duplicate. One variable a
  // test: the channel's chat budget is 30 commands a minute.
  test("each invisible character before !addcom, through $(query)", async () => {
    h = await startConnectedChat();
    expect(await mod("!addcom !say $(query)")).toBe(REPLIES.added("say"));
    for (const [i, invisible] of INVISIBLE_LEADS.entries()) {
      expect(await mod(`!say ${invisible}!addcom !x${i} hi`)).toBe(`addcom !x${i} hi`);
    }
    expectNoCommandLead();
  });

  test("each invisible character before !addcom, through $(1)", async () => {
    h = await startConnectedChat();
    expect(await mod("!addcom !first $(1) was first")).toBe(REPLIES.added("first"));
    for (const [i, invisible] of INVISIBLE_LEADS.entries()) {
      expect(await mod(`!first ${invisible}!addcom${i} !x`)).toBe(`addcom${i} was first`);
    }
    expectNoCommandLead();
  });

  test("each command character, behind a blank template text, through $(query) and $(1)", async () => {
    h = await startConnectedChat();
    expect(await mod("!addcom !echo \u2800 $(query)")).toBe(REPLIES.added("echo"));
    expect(await mod("!addcom !pair $(1)$(2)")).toBe(REPLIES.added("pair"));
    for (const [i, char] of COMMAND_CHARACTERS.entries()) {
      expect(await mod(`!echo ${char}ban viewer_${i}`)).toBe(`ban viewer_${i}`);
      expect(await mod(`!pair ${char} \u200b${char}so${i}`)).toBe(`so${i}`);
    }
    expectNoCommandLead();
  });

  test("troll texts behind a command character or an invisible never lead a line with a command", async () => {
    h = await startConnectedChat();
    expect(await mod("!addcom !say $(query)")).toBe(REPLIES.added("say"));
    for (const [i, troll] of TROLL_TEXTS.entries()) {
      const lead = INVISIBLE_LEADS[i % INVISIBLE_LEADS.length];
      const reply = await mod(`!say ${lead}!${troll}`);
      expect(reply).toBeTruthy();
      expect(leadsWithCommand(reply ?? "")).toBe(false);
    }
    expectNoCommandLead();
  });
});

describe("cuebot's own sentences", () => {
  test("the replies to moderators name a command inside the sentence, never first", async () => {
    h = await startConnectedChat();
    expect(await mod("!addcom !deaths Deaths: $(count)")).toBe(REPLIES.added("deaths"));
    await editCustomCommand(h.ctx.db, h.account.id, "deaths", { cooldownSeconds: 0 }, Date.now());
    expect(await mod("!deaths +")).toBe(COUNT_REPLIES.now("deaths", 1));
    expect(await mod("!addcom !so hello")).toBe(REPLIES.builtIn("so"));
    expect(await mod("!addcom !quote hello")).toBe(REPLIES.reserved("quote"));
    expect(await mod("!addcom !loop -a=!loop")).toBe(REPLIES.selfAlias("loop"));
    expect(await mod("!addquote !bot part")).toBe("Quote #1 has been added.");
    expect(await mod("!quote 1")).toMatch(/^Quote #1: "!bot part"/);
    expectNoCommandLead();
  });
});
