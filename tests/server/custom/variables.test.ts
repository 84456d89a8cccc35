import { describe, expect, test } from "bun:test";
import { seededRandom } from "../../../server/bot/chance.ts";
import { ManualClock } from "../../../server/core/clock.ts";
import {
  type ExpansionInput,
  expandResponse,
  usesCount,
  type VariableResolvers,
} from "../../../server/custom/variables.ts";
import { chance } from "../../helpers/chance.ts";
import { expectNoEcho, TROLL_TEXTS } from "../../helpers/troll-texts.ts";

/** 2026-11-21 12:00 UTC. */
const clock = new ManualClock();

function input(over: Partial<ExpansionInput> = {}): ExpansionInput {
  return {
    caller: { login: "alice", displayName: "Alice" },
    channel: "Streamer",
    args: [],
    count: 1,
    random: seededRandom(1),
    clock,
    resolvers: {},
    ...over,
  };
}
const say = (template: string, over: Partial<ExpansionInput> = {}) => expandResponse(template, input(over));

describe("the caller, the arguments and the count", () => {
  test("$(user), $(channel) and $(count)", async () => {
    expect(await say("Welcome $(user) to $(channel)! Use #$(count)", { count: 12 })).toBe(
      "Welcome Alice to Streamer! Use #12",
    );
    expect(await say("$(user)", { caller: { login: "bob", displayName: "" } })).toBe("bob");
  });

  test("$(touser) is the first word when it is a login (the @ dropped), else the caller", async () => {
    expect(await say("hugs $(touser)", { args: ["@Bob_1", "extra"] })).toBe("hugs Bob_1");
    expect(await say("hugs $(touser)")).toBe("hugs Alice");
    for (const troll of TROLL_TEXTS) {
      const reply = await say("hugs $(touser)", { args: [troll] });
      expect(reply).toBe("hugs Alice");
    }
  });

  test("$(query) and $(1)…$(9) are the chatter's words; a missing one is empty", async () => {
    const args = ["one", "two", "three"];
    expect(await say("[$(query)]", { args })).toBe("[one two three]");
    expect(await say("$(2)-$(1)-$(9)-$(3)", { args })).toBe("two-one--three");
    expect(await say("[$(query)]")).toBe("[]");
  });

  test("a chatter's words are never read as variables", async () => {
    const args = ["$(count)", "$(urlfetch", "http://10.0.0.1/)", "$(user)"];
    expect(await say("You said: $(query)", { args, count: 5 })).toBe(
      "You said: $(count) $(urlfetch http://10.0.0.1/) $(user)",
    );
    expect(await say("$(1) and $(4)", { args })).toBe("$(count) and $(user)");
    expect(await say("pick: $(pick $(query))", { args: ["$(user)|$(user)"], random: chance(0) })).toBe(
      "pick: $(user)",
    );
  });

  test("a chatter's control characters are dropped and never lead the reply with a command", async () => {
    expect(await say("said $(query)", { args: ["a\u202eb\nc\u2066d"] })).toBe("said ab cd");
    expect(await say("$(query)", { args: ["!commands", "add", "!x", "hi"] })).toBe("commands add !x hi");
    expect(await say("$(1)", { args: ["/ban"] })).toBe("ban");
    expect(await say(" $(query)", { args: ["...!!/", "announce"] })).toBe("announce");
    expect(await say("$(1)$(2)", { args: ["!", "!so"] })).toBe("so");
    expect(await say("Say: $(query)", { args: ["!so", "x"] })).toBe("Say: !so x");
    // The streamer's own text opens no command either (core/chat-lead.ts); Nightbot's /me goes whole.
    expect(await say("/me waves at $(touser)", { args: ["@bob"] })).toBe("waves at bob");
    expect(await say("!bot part")).toBe("bot part");
    expect(await say("\u2800 $(query)", { args: ["\u200b!addcom", "!x"] })).toBe("addcom !x");
  });

  test("usesCount finds $(count), nested too", () => {
    expect(usesCount("Deaths: $(count)")).toBe(true);
    expect(usesCount("$(pick $(count)|x)")).toBe(true);
    expect(usesCount("no count here, $(counter)")).toBe(false);
    expect(usesCount("$(count")).toBe(false);
    // Left as typed or refused, so the count is not shown and not counted.
    expect(usesCount("$(weather $(count))")).toBe(false);
    expect(usesCount("$(urlfetch https://x.example/$(count))")).toBe(false);
  });
});

describe("time, random and pick", () => {
  test("$(time zone) is the time there; a zone Intl does not know gets a fixed sentence", async () => {
    expect(await say("$(time Europe/Paris)")).toBe("November 21, 2026 at 1:00 PM GMT+1");
    expect(await say("$(time America/New_York)")).toBe("November 21, 2026 at 7:00 AM EST");
    expect(await say("$(time)")).toBe("November 21, 2026 at 12:00 PM UTC");
    expect(await say("$(time Mars/Olympus)")).toBe("(unknown time zone)");
    expect(await say(`$(time ${"A".repeat(100)})`)).toBe("(unknown time zone)");
    for (const troll of TROLL_TEXTS) {
      const reply = await say("$(time $(1))", { args: [troll] });
      expect(reply).toBe("(unknown time zone)");
      expectNoEcho(reply);
    }
  });

  test("$(random a-b) is a whole number in the range, ends included", async () => {
    expect(await say("$(random 1-6)", { random: chance(0) })).toBe("1");
    expect(await say("$(random 1-6)", { random: chance(0.9999) })).toBe("6");
    expect(await say("$(random 6-1)", { random: chance(0) })).toBe("1");
    expect(await say("$(random -10 - -5)", { random: chance(0.9999) })).toBe("-5");
    const rolls = await Promise.all(
      Array.from({ length: 200 }, () => say("$(random 1-3)", { random: Math.random })),
    );
    expect(new Set(rolls)).toEqual(new Set(["1", "2", "3"]));
    for (const bad of ["", "abc", "1-", "1-99999999999", "1.5-3", "1-2-3"]) {
      expect(await say(`$(random ${bad})`)).toBe("(random needs a range like 1-100)");
    }
  });

  test("$(pick a|b|c) picks one choice, blanks skipped", async () => {
    expect(await say("$(pick a|b|c)", { random: chance(0.5) })).toBe("b");
    expect(await say("$(pick  | x |  )", { random: chance(0.9) })).toBe("x");
    expect(await say("$(pick $(user)|nobody)", { random: chance(0) })).toBe("Alice");
    expect(await say("$(pick)")).toBe("(pick needs choices like a|b|c)");
  });
});

describe("resolvers", () => {
  test("uptime, game, followage and the game commands ask their resolver", async () => {
    const asked: string[] = [];
    const resolvers: VariableResolvers = {
      uptime: async () => "2 hours 3 minutes",
      game: async () => "VALORANT",
      followage: async (login) => {
        asked.push(login);
        return `${login} has followed for 1 year`;
      },
      gameCommand: async (command) => `${command}: Gold 2`,
    };
    expect(await say("Live for $(uptime) playing $(game)", { resolvers })).toBe(
      "Live for 2 hours 3 minutes playing VALORANT",
    );
    expect(await say("$(followage)", { resolvers, args: ["@Bob"] })).toBe("Bob has followed for 1 year");
    expect(await say("$(followage)", { resolvers, args: ["free subs"] })).toBe(
      "Alice has followed for 1 year",
    );
    expect(await say("$(followage carol)", { resolvers })).toBe("carol has followed for 1 year");
    expect(await say("$(rank) | $(stats)", { resolvers })).toBe("rank: Gold 2 | stats: Gold 2");
  });

  test("a resolver that fails, throws, answers nothing or is missing gives a placeholder", async () => {
    const resolvers: Partial<VariableResolvers> = {
      uptime: () => Promise.reject(new Error("Helix down")),
      game: () => {
        throw new Error("sync");
      },
      gameCommand: async () => "  ",
    };
    expect(await say("$(uptime) $(game) $(rank) $(followage)", { resolvers })).toBe(
      "(uptime unavailable) (game unavailable) (rank unavailable) (followage unavailable)",
    );
  });

  test("each resolver is asked once per reply, and siblings are asked together", async () => {
    let calls = 0;
    const waiting: (() => void)[] = [];
    const later = (text: string) =>
      new Promise<string>((resolve) => {
        calls += 1;
        waiting.push(() => resolve(text));
      });
    const reply = say("$(rank) $(rank) $(uptime) $(rank)", {
      resolvers: { gameCommand: () => later("Gold"), uptime: () => later("1h") },
    });
    await Bun.sleep(0);
    expect(calls).toBe(2);
    for (const release of waiting) release();
    expect(await reply).toBe("Gold Gold 1h Gold");
  });

  test("nothing fetches a URL or runs code, nested or not", async () => {
    let asked = false;
    const resolvers: Partial<VariableResolvers> = {
      followage: async () => {
        asked = true;
        return "x";
      },
    };
    expect(await say("$(urlfetch https://example.com/$(followage))", { resolvers })).toBe(
      "(cuebot does not fetch URLs)",
    );
    expect(await say("$(customapi http://169.254.169.254/)")).toBe("(cuebot does not fetch URLs)");
    expect(await say("$(eval 1+1)")).toBe("(cuebot does not run code)");
    expect(asked).toBe(false);
  });
});

describe("the template's shape", () => {
  test("unknown variables and unclosed ones stay as typed", async () => {
    expect(await say('$(weather Paris) $(twitch $(channel) "{{game}}")')).toBe(
      '$(weather Paris) $(twitch $(channel) "{{game}}")',
    );
    expect(await say("$(user")).toBe("$(user");
    expect(await say("$(user))")).toBe("Alice)");
    expect(await say("$() $( ) $(!x) (user) $user")).toBe("$() $( ) $(!x) (user) $user");
    expect(await say("$( USER )")).toBe("Alice");
  });

  test("parentheses inside a variable's argument pair up", async () => {
    expect(await say("$(pick a (b)|c)", { random: chance(0) })).toBe("a (b)");
  });

  test("deep nesting and floods end in one bounded line, never a crash", async () => {
    const deep = `${"$(pick ".repeat(50)}x${")".repeat(50)}`;
    expect((await say(deep)).length).toBeLessThanOrEqual(500);
    const flood = await say("$(user) ".repeat(20_000));
    expect([...flood].length).toBeLessThanOrEqual(500);
    expect(flood.endsWith("…")).toBe(true);
    const longQuery = await say("$(query)", { args: Array.from({ length: 20 }, () => "word\n".repeat(20)) });
    expect(longQuery).not.toContain("\n");
    expect([...longQuery].length).toBeLessThanOrEqual(500);
    expect(await say("line one\nline two")).toBe("line one line two");
    const started = performance.now();
    const unclosed = await say(`$(${"$(pick (".repeat(30_000)}`);
    expect(unclosed.startsWith("$($(pick (")).toBe(true);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  test("a reply with nothing in it is empty (nothing is sent)", async () => {
    expect(await say("$(query)")).toBe("");
    expect(await say("  ")).toBe("");
  });
});
