import { describe, expect, test } from "bun:test";
import { commandInputFromChat, userLevelOf } from "../../../server/chat/chat-command-input.ts";
import { chatLine, MAX_LINE, ORDINARY, PRIVILEGED, SendPacer } from "../../../server/chat/send-limits.ts";
import { isForUs, matchCommand, triggerTable } from "../../../server/chat/triggers.ts";
import type { ChatMessageEvent } from "../../../server/live/eventsub-message.ts";
import { FOLDING_LOOKALIKES } from "../../helpers/troll-texts.ts";

const event = (text: string, extra: Partial<ChatMessageEvent> = {}): ChatMessageEvent => ({
  broadcasterId: "1",
  broadcasterLogin: "streamer",
  chatterId: "2",
  chatterLogin: "viewer",
  chatterName: "Viewer",
  messageId: "m1",
  text,
  badges: [],
  replyParentLogin: null,
  sourceBroadcasterId: null,
  emotes: [],
  ...extra,
});

const table = triggerTable([
  { command: "followage", enabled: true, aliases: ["fa"] },
  { command: "shoutout", enabled: true, aliases: ["so"] },
  { command: "coinflip", enabled: false, aliases: ["flip"] },
  { command: "magic8", enabled: true, aliases: ["8ball", "so"] },
]);

describe("triggers", () => {
  test("the first word: ! plus a name or alias of an enabled command, any case", () => {
    expect(matchCommand(event("!followage"), table)).toEqual({ command: "followage", args: [] });
    expect(matchCommand(event("  !FA  @Someone  "), table)).toEqual({
      command: "followage",
      args: ["@Someone"],
    });
    expect(matchCommand(event("!8ball will it rain?"), table)).toEqual({
      command: "magic8",
      args: ["will", "it", "rain?"],
    });
    // The first command to claim an alias keeps it.
    expect(matchCommand(event("!so x"), table)?.command).toBe("shoutout");
  });

  test("a trigger is checked before it is folded: look-alikes that lower-case into ASCII run nothing", () => {
    const withK = triggerTable([{ command: "pick", enabled: true, aliases: ["kk"] }]);
    expect(matchCommand(event("!PICK"), withK)?.command).toBe("pick");
    for (const lookalike of FOLDING_LOOKALIKES) {
      expect(matchCommand(event(`!${lookalike}`), table)).toBeNull();
    }
    for (const text of ["!pic\u212A", "!\u212A\u212A", "!\uFF50\uFF49\uFF43\uFF4B"]) {
      expect(matchCommand(event(text), withK)).toBeNull();
    }
  });

  test("no match: disabled commands, other words, ! alone, text before the command, empty", () => {
    for (const text of [
      "!coinflip",
      "!flip",
      "!teleport",
      "!",
      "",
      "hi !followage",
      "followage",
      "! followage",
    ]) {
      expect(matchCommand(event(text), table)).toBeNull();
    }
  });

  test("a reply's leading @parent is skipped", () => {
    expect(matchCommand(event("@Mod !so other", { replyParentLogin: "mod" }), table)).toEqual({
      command: "shoutout",
      args: ["other"],
    });
    expect(matchCommand(event("@someoneelse !so other", { replyParentLogin: "mod" }), table)).toBeNull();
  });

  test("arguments are bounded: at most 20 words of at most 100 characters", () => {
    const call = matchCommand(event(`!8ball ${"word ".repeat(50)}${"x".repeat(500)}`), table)!;
    expect(call.args).toHaveLength(20);
    const long = matchCommand(event(`!8ball ${"y".repeat(500)}`), table)!;
    expect(long.args[0]).toHaveLength(100);
  });

  test("own messages and shared-chat lines from another channel are not for us", () => {
    expect(isForUs(event("!fa"), "9")).toBe(true);
    expect(isForUs(event("!fa", { chatterId: "9" }), "9")).toBe(false);
    expect(isForUs(event("!fa", { sourceBroadcasterId: "5" }), "9")).toBe(false);
    expect(isForUs(event("!fa", { sourceBroadcasterId: "1" }), "9")).toBe(true);
  });
});

describe("chat words → the command call", () => {
  test("positional words fill the arguments a chat bot would put in the URL", () => {
    const input = (command: Parameters<typeof commandInputFromChat>[0], words: string[]) =>
      commandInputFromChat(command, words, event("")).args;
    expect(input("followage", ["@anna"])).toEqual({ channel: "streamer", user: "@anna" });
    expect(input("dice", ["20", "3", "extra"])).toEqual({ channel: "streamer", sides: "20", count: "3" });
    expect(input("magic8", ["will", "it?"])).toEqual({ channel: "streamer", question: "will it?" });
    expect(input("roulette", ["RANDOM"])).toEqual({ channel: "streamer", target: "random" });
    expect(input("roulette", ["anna"])).toEqual({ channel: "streamer" });
    expect(input("clip", ["ignored"])).toEqual({ channel: "streamer" });
  });

  test("troll words fill only what the command's chat table names, as typed", () => {
    const input = (command: Parameters<typeof commandInputFromChat>[0], words: string[]) =>
      commandInputFromChat(command, words, event("")).args;
    // Look-alikes and invisible characters are not the keyword: no random target.
    for (const word of ["rand\u200Bom", "ＲＡＮＤＯＭ", "random!", "\u202Erandom", "randomrandom"])
      expect(input("roulette", [word])).toEqual({ channel: "streamer" });
    // A word that looks like an argument or a command is text, never a second argument name.
    expect(input("followage", ["channel=other", "precision=7"])).toEqual({
      channel: "streamer",
      user: "channel=other",
    });
    expect(input("magic8", ["!so", "@x", "\u200B"])).toEqual({
      channel: "streamer",
      question: "!so @x \u200B",
    });
    expect(input("dice", [])).toEqual({ channel: "streamer" });
    expect(input("rank", ["na", "anna", "1234"])).toEqual({ channel: "streamer" });
  });

  test("the caller's level comes from Twitch's badges", () => {
    expect(userLevelOf(event("", { chatterId: "1" }))).toBe("owner");
    expect(userLevelOf(event("", { badges: ["moderator", "subscriber"] }))).toBe("moderator");
    expect(userLevelOf(event("", { badges: ["vip"] }))).toBe("twitch_vip");
    expect(userLevelOf(event("", { badges: ["founder"] }))).toBe("subscriber");
    expect(userLevelOf(event("", { badges: ["glhf-pledge"] }))).toBe("everyone");
    expect(commandInputFromChat("coinflip", [], event("")).caller).toEqual({
      channel: "streamer",
      user: "viewer",
      displayName: "Viewer",
      userLevel: "everyone",
    });
  });
});

describe("sending pace", () => {
  test("ordinary senders: 18 per 30 s and 1.1 s apart; identical lines within 30 s are duplicates", () => {
    const pacer = new SendPacer(ORDINARY);
    let now = 0;
    for (let i = 0; i < 18; i++) {
      expect(pacer.waitMs(now)).toBe(0);
      pacer.record(`line ${i}`, now, true);
      if (i < 17) expect(pacer.waitMs(now)).toBe(1100);
      now += 1100;
    }
    // The 19th waits for the first to leave the 30 s window.
    expect(pacer.waitMs(now)).toBe(30_000 - now);
    expect(pacer.isDuplicate("line 17", now)).toBe(true);
    expect(pacer.isDuplicate("  line   17 ", now)).toBe(true);
    expect(pacer.isDuplicate("line 17", now + 30_000)).toBe(false);
  });

  test("privileged senders: 90 per 30 s, no gap, no duplicate rule", () => {
    const pacer = new SendPacer(PRIVILEGED);
    for (let i = 0; i < 90; i++) pacer.record("same", 0, true);
    expect(pacer.waitMs(0)).toBe(30_000);
    expect(pacer.isDuplicate("same", 1)).toBe(false);
  });

  test("chat lines are one line and at most 480 code points", () => {
    expect(chatLine("one\ntwo\r\n three")).toBe("one two three");
    const long = chatLine("😀".repeat(600));
    expect([...long]).toHaveLength(MAX_LINE);
    expect(long.endsWith("…")).toBe(true);
  });

  test("a line at the limit is kept whole, by code points not UTF-16 units; only newlines fold its spaces", () => {
    expect(chatLine("a".repeat(MAX_LINE))).toBe("a".repeat(MAX_LINE));
    expect([...chatLine("a".repeat(MAX_LINE + 1))]).toHaveLength(MAX_LINE);
    // 300 emoji are 600 UTF-16 units but 300 code points: under the limit.
    expect(chatLine("😀".repeat(300))).toBe("😀".repeat(300));
    expect(chatLine("  two  spaces stay  ")).toBe("two  spaces stay");
    expect(chatLine(" \t a \n\n b\t")).toBe("a b");
  });
});
